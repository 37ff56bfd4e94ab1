#include "core/collab/LeaderTrust.h"

namespace sahaj::collab {

namespace {

// Two failures in a row: a slow leader fails once now and then, a lying one every time.
constexpr int kFailuresToDistrust = 2;

} // namespace

bool LeaderTrust::follows(const std::string& peerId, Clock::time_point now) const {
    const auto it = records_.find(peerId);
    return it == records_.end() || it->second.distrustedUntil <= now;
}

bool LeaderTrust::beganNothing(const std::string& peerId, Clock::time_point now) {
    forget(now);
    Record& record = records_[peerId];
    record.lastFailure = now;
    if (++record.failuresInARow < kFailuresToDistrust)
        return false;
    record.distrustedUntil = now + distrustFor_;
    return true;
}

void LeaderTrust::brokePlan(const std::string& peerId, Clock::time_point now) {
    forget(now);
    Record& record = records_[peerId];
    record.lastFailure = now;
    record.distrustedUntil = now + distrustFor_;
}

void LeaderTrust::beganGroup(const std::string& peerId) {
    records_.erase(peerId);
}

void LeaderTrust::forget(Clock::time_point now) {
    std::erase_if(records_, [&](const auto& entry) {
        return entry.second.distrustedUntil <= now && now - entry.second.lastFailure > 2 * distrustFor_;
    });
}

} // namespace sahaj::collab
