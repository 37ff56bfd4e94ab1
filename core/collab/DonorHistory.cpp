#include "core/collab/DonorHistory.h"

#include <algorithm>

namespace sahaj::collab {

void DonorHistory::failed(const std::string& peerId, Clock::time_point when) {
    failedAt_[peerId] = when;
}

void DonorHistory::failed(const std::vector<DonorFailure>& failures, Clock::time_point when) {
    for (const DonorFailure& failure : failures)
        failed(failure.peerId, when);
}

std::vector<StateDonor> DonorHistory::order(std::vector<StateDonor> donors, Clock::time_point now) {
    std::erase_if(failedAt_, [&](const auto& entry) { return now - entry.second >= kMemory; });
    const auto recent = [&](const StateDonor& donor) { return failedAt_.contains(donor.peerId); };
    const auto firstFailed = std::stable_partition(donors.begin(), donors.end(),
                                                   [&](const StateDonor& donor) { return !recent(donor); });
    for (auto it = firstFailed; it != donors.end(); ++it)
        it->failedLately = true;
    std::stable_sort(firstFailed, donors.end(), [&](const StateDonor& a, const StateDonor& b) {
        return failedAt_.at(a.peerId) < failedAt_.at(b.peerId);
    });
    return donors;
}

} // namespace sahaj::collab
