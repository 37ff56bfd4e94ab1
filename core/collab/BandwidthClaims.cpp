#include "core/collab/BandwidthClaims.h"

#include <algorithm>
#include <cmath>

namespace sahaj::collab {

void BandwidthClaims::observe(const std::string& peerId, double valuesPerSecond) {
    if (!std::isfinite(valuesPerSecond) || valuesPerSecond <= 0.0)
        return;
    auto found = rates_.find(peerId);
    if (found == rates_.end()) {
        if (rates_.size() >= kMaxPeers) {
            rates_.erase(order_.front());
            order_.pop_front();
        }
        found = rates_.emplace(peerId, std::deque<double>{}).first;
        order_.push_back(peerId);
    }
    std::deque<double>& rates = found->second;
    rates.push_back(valuesPerSecond);
    if (rates.size() > kRememberedRates)
        rates.pop_front();
}

std::optional<double> BandwidthClaims::capOf(const std::string& peerId) const {
    const auto found = rates_.find(peerId);
    if (found == rates_.end() || found->second.empty())
        return std::nullopt;
    return kMargin * *std::max_element(found->second.begin(), found->second.end());
}

void BandwidthClaims::cap(std::vector<GroupMember>& members, const std::string& self) const {
    std::vector<double> claims;
    for (const GroupMember& member : members)
        if (member.bandwidth > 0.0)
            claims.push_back(member.bandwidth);
    if (claims.empty())
        return;
    std::sort(claims.begin(), claims.end());
    const double lowerMedian = claims[(claims.size() - 1) / 2];
    for (GroupMember& member : members) {
        if (member.peerId == self || member.bandwidth <= 0.0)
            continue;
        member.bandwidth = std::min(member.bandwidth, capOf(member.peerId).value_or(lowerMedian));
    }
}

} // namespace sahaj::collab
