#pragma once

#include <chrono>
#include <map>
#include <string>

namespace sahaj::collab {

// What this peer saw of the leaders it followed, across matchmakings: a leader is followed again only while
// it keeps its word (docs/protocol.md, "Group formation").
//
// A leader that accepted this peer and then began no group in time once is more likely slow than lying (a
// loaded machine, a lost message), so one failure costs it only the rest of that matchmaking; two in a row
// (no group begun in between) and it is not followed for `distrustFor`. A leader that began a group unlike
// the plan every peer of the run makes said so in its own authenticated message: not followed at once.
// Nothing here bans anyone; it only decides whom this peer asks to join.
class LeaderTrust {
public:
    using Clock = std::chrono::steady_clock;

    explicit LeaderTrust(std::chrono::seconds distrustFor = std::chrono::seconds(600))
        : distrustFor_(distrustFor) {}

    // False while `peerId` is not followed.
    bool follows(const std::string& peerId, Clock::time_point now) const;
    // It accepted this peer and began no group in time. True when that made it distrusted.
    bool beganNothing(const std::string& peerId, Clock::time_point now);
    // Its GroupBegin broke the run's plan: distrusted from now.
    void brokePlan(const std::string& peerId, Clock::time_point now);
    // It began a group this peer accepted: its failures so far are forgiven.
    void beganGroup(const std::string& peerId);

    std::chrono::seconds distrustFor() const { return distrustFor_; }

private:
    struct Record {
        int failuresInARow = 0;
        Clock::time_point lastFailure{};
        Clock::time_point distrustedUntil{};
    };
    // Drops the leaders that failed last more than twice `distrustFor` ago and are not distrusted, so the
    // map holds only those that failed lately: each failure cost this peer a wait, which bounds their count.
    void forget(Clock::time_point now);

    std::chrono::seconds distrustFor_;
    std::map<std::string, Record> records_;
};

} // namespace sahaj::collab
