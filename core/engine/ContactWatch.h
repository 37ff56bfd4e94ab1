#pragma once

#include <QtGlobal>

#include <cstddef>

namespace sahaj::engine {

// Whether a joined peer is still in touch with its collaboration: it is not once no other peer's progress
// record has been live for `lostAfterMs` (counted from the join when none ever was). Seen: with the
// coordinator killed, the app kept saying "Training", stepping alone, with no word of it. Records live a
// minute (ProgressTrackerOptions::recordTtl), so the loss shows at most that long after the last peer went.
class ContactWatch {
public:
    enum class Change { None, Lost, Regained };
    static constexpr qint64 kLostAfterMs = 30'000;

    explicit ContactWatch(qint64 lostAfterMs = kLostAfterMs) : lostAfterMs_(lostAfterMs) {}

    // A new join: in touch until the deadline passes without a peer.
    void joined(qint64 nowMs);
    // Another status: how many other peers have live records. Says when contact was lost or regained.
    Change observe(std::size_t remotePeers, qint64 nowMs);
    bool lost() const { return lost_; }
    // Milliseconds since another peer was last heard from (or since the join).
    qint64 silentForMs(qint64 nowMs) const { return nowMs - lastContactMs_; }

private:
    qint64 lostAfterMs_;
    qint64 lastContactMs_ = 0;
    bool lost_ = false;
};

} // namespace sahaj::engine
