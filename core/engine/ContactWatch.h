#pragma once

#include <QtGlobal>

#include <cstddef>

namespace sahaj::engine {

// Whether a joined peer is still in touch with its collaboration: it is not once no other peer's progress
// record has been live for `lostAfterMs` (counted from the join when none ever was). Seen: with the
// coordinator killed, the app kept saying "Training", stepping alone, with no word of it. Records live a
// minute (ProgressTrackerOptions::recordTtl), so the loss shows at most that long after the last peer went.
//
// The run's coordinator is watched on its own: training goes on without it while other peers are there,
// but no newcomer is admitted (it hands out the access tokens) and its checkpoint stops. It is lost once
// no live record of it that answers this peer's dial (collab::LatencyProbe) has been seen for the same
// time, counted from the join as well: every run has one.
class ContactWatch {
public:
    enum class Change { None, Lost, Regained, CoordinatorLost, CoordinatorRegained };
    static constexpr qint64 kLostAfterMs = 30'000;

    explicit ContactWatch(qint64 lostAfterMs = kLostAfterMs) : lostAfterMs_(lostAfterMs) {}

    // A new join: in touch until the deadline passes without a peer.
    void joined(qint64 nowMs);
    // Another status: how many other peers have live records, and whether the coordinator is among the
    // peers seen and answers. Says when contact with the collaboration was lost or regained, else when the
    // coordinator alone was (coordinatorLost() changed).
    Change observe(std::size_t remotePeers, bool coordinatorAnswers, qint64 nowMs);
    bool lost() const { return lost_; }
    // The coordinator unheard from for the deadline while the collaboration is not lost (that says more).
    bool coordinatorLost() const { return coordinatorSilent_ && !lost_; }
    // Milliseconds since another peer was last heard from (or since the join).
    qint64 silentForMs(qint64 nowMs) const { return nowMs - lastContactMs_; }
    // Milliseconds since the coordinator last answered (or since the join).
    qint64 coordinatorSilentForMs(qint64 nowMs) const { return nowMs - lastCoordinatorMs_; }

private:
    qint64 lostAfterMs_;
    qint64 lastContactMs_ = 0;
    qint64 lastCoordinatorMs_ = 0;
    bool lost_ = false;
    bool coordinatorSilent_ = false;
};

} // namespace sahaj::engine
