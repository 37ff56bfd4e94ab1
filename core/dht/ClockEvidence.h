#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::dht {

// What the run's records say about this computer's clock (docs/security.md, "Clocks"). Its peers refuse
// messages more than two minutes off their own clocks (MessageCodec::kReplayWindow) and records dated over
// a minute in the reader's future (RecordRules::kMaxClockSkew): a volunteer whose clock is off that much
// cannot join, and should be told why rather than wait in silence. The evidence is the newest record of
// each owner, its issue time less this clock's when it was read (DhtNode::freshestRecordOffsetsMs): on a
// right clock, about zero to minus the republishing period.
class ClockEvidence {
public:
    // What to tell the user, or "" when the records' times fit this clock: with the median owner's newest
    // record dated over kBehindAfter in this clock's future, the clock is behind; with it older than
    // kAheadAfter, the clock is ahead, or the run has stopped (said so: both read the same).
    static std::string problem(std::vector<std::int64_t> offsetsMs);

    static constexpr std::int64_t kBehindAfterMs = 60000;
    static constexpr std::int64_t kAheadAfterMs = 90000; // a record is republished within its 60 s life
};

} // namespace sahaj::dht
