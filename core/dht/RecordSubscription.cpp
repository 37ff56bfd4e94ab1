#include "core/dht/RecordSubscription.h"

#include "core/dht/RecordRules.h"

namespace sahaj::dht {

RecordSubscription::RecordSubscription(QString key, Callback callback)
    : key_(std::move(key)), callback_(std::move(callback)) {}

bool RecordSubscription::beginRound() {
    std::lock_guard lock(mutex_);
    if (!active_ || inFlight_)
        return false;
    inFlight_ = true;
    return true;
}

void RecordSubscription::deliver(const std::vector<DhtRecord>& records,
                                 std::chrono::system_clock::time_point now) {
    std::lock_guard lock(mutex_);
    inFlight_ = false;
    std::erase_if(deliveredIssuedAt_, [&](const auto& entry) {
        return entry.second + RecordRules::kMaxTtl + RecordRules::kMaxClockSkew < now;
    });
    for (const DhtRecord& record : records) {
        if (!active_)
            return;
        auto [delivered, added] = deliveredIssuedAt_.try_emplace(record.owner, record.issuedAt);
        if (!added && record.issuedAt <= delivered->second)
            continue;
        delivered->second = record.issuedAt;
        callback_(record);
    }
}

void RecordSubscription::cancel() {
    std::lock_guard lock(mutex_);
    active_ = false;
}

} // namespace sahaj::dht
