#include "core/dht/LatestRecords.h"

namespace sahaj::dht {

void LatestRecords::offer(DhtRecord record) {
    auto [held, inserted] = byOwner_.try_emplace(record.owner, record);
    if (!inserted && record.issuedAt > held->second.issuedAt)
        held->second = std::move(record);
}

std::vector<DhtRecord> LatestRecords::live(std::chrono::system_clock::time_point now) const {
    std::vector<DhtRecord> records;
    for (const auto& [owner, record] : byOwner_) {
        if (now < record.expiresAt)
            records.push_back(record);
    }
    return records;
}

} // namespace sahaj::dht
