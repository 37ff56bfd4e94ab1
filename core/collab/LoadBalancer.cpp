#include "core/collab/LoadBalancer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace sahaj::collab {

namespace {

// Doubles hold every integer up to 2^53 exactly, so quotas of larger totals would lose elements.
constexpr std::int64_t kLargestApportionedTotal = std::int64_t{1} << 53;

void validate(const std::vector<MemberBandwidth>& members) {
    bool anyAggregator = false;
    for (std::size_t i = 0; i < members.size(); ++i) {
        const double b = members[i].bandwidth;
        if (!std::isfinite(b) || b < 0.0)
            throw std::invalid_argument("load balancing: member " + std::to_string(i) + " has bandwidth " +
                                        std::to_string(b) + "; a bandwidth must be a finite number >= 0");
        if (b > 0.0 && !std::isfinite(1.0 / b))
            throw std::invalid_argument("load balancing: member " + std::to_string(i) + " has bandwidth " +
                                        std::to_string(b) + ", too small to compute with; use 0 for unknown");
        anyAggregator = anyAggregator || members[i].canAggregate;
    }
    if (!anyAggregator)
        throw std::invalid_argument("a group needs at least one member that accepts connections");
}

bool hasKnownBandwidth(const MemberBandwidth& member) {
    return member.bandwidth > 0.0;
}

bool takesShare(const MemberBandwidth& member) {
    return member.canAggregate && hasKnownBandwidth(member);
}

// w_i(λ) of the water filling: the largest share member i can take while its time stays <= level.
double fillAt(double level, double bandwidth, double groupSizeMinusTwo) {
    return std::clamp((level * bandwidth - 1.0) / groupSizeMinusTwo, 0.0, 1.0);
}

// The smallest level λ with Σ w_i(λ) >= 1 over the aggregators' bandwidths (G > 2, at least one).
double waterLevel(const std::vector<double>& bandwidths, double groupSizeMinusTwo) {
    std::vector<double> breakpoints;
    for (const double b : bandwidths) {
        breakpoints.push_back(1.0 / b);
        breakpoints.push_back((groupSizeMinusTwo + 1.0) / b);
    }
    std::sort(breakpoints.begin(), breakpoints.end());
    breakpoints.erase(std::unique(breakpoints.begin(), breakpoints.end()), breakpoints.end());
    const auto filled = [&](double level) {
        double sum = 0.0;
        for (const double b : bandwidths)
            sum += fillAt(level, b, groupSizeMinusTwo);
        return sum;
    };
    // S is 0 at the first breakpoint and equals the number of aggregators (>= 1) at the last.
    std::size_t upper = 1;
    while (upper + 1 < breakpoints.size() && filled(breakpoints[upper]) < 1.0)
        ++upper;
    const double low = breakpoints[upper - 1];
    const double high = breakpoints[upper];
    // No breakpoint lies strictly inside (low, high): each member is filling, full or empty on all of it,
    // and S(λ) = full + Σ_filling (λ·b_i - 1)/(G - 2) = 1 solves exactly.
    double full = 0.0;
    double filling = 0.0;
    double fillingBandwidth = 0.0;
    for (const double b : bandwidths) {
        if ((groupSizeMinusTwo + 1.0) / b <= low) {
            full += 1.0;
        } else if (1.0 / b <= low) {
            filling += 1.0;
            fillingBandwidth += b;
        }
    }
    if (fillingBandwidth <= 0.0)
        return high;
    return std::clamp(((1.0 - full) * groupSizeMinusTwo + filling) / fillingBandwidth, low, high);
}

std::vector<double> waterFillingShares(const std::vector<MemberBandwidth>& members) {
    const double groupSizeMinusTwo = static_cast<double>(members.size()) - 2.0;
    std::vector<double> bandwidths;
    for (const MemberBandwidth& member : members) {
        if (takesShare(member))
            bandwidths.push_back(member.bandwidth);
    }
    const double level = waterLevel(bandwidths, groupSizeMinusTwo);
    std::vector<double> shares(members.size(), 0.0);
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (takesShare(members[i]))
            shares[i] = fillAt(level, members[i].bandwidth, groupSizeMinusTwo);
    }
    return shares;
}

// G <= 2, or no aggregator with a known bandwidth: weights proportional to bandwidth, or equal.
std::vector<double> proportionalShares(const std::vector<MemberBandwidth>& members) {
    const bool anyKnown = std::any_of(members.begin(), members.end(), takesShare);
    std::vector<double> shares(members.size(), 0.0);
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (members[i].canAggregate)
            shares[i] = anyKnown ? members[i].bandwidth : 1.0;
    }
    return shares;
}

} // namespace

LoadBalance LoadBalancer::solve(const std::vector<MemberBandwidth>& members) {
    validate(members);
    const bool waterFilling = members.size() > 2 && std::any_of(members.begin(), members.end(), takesShare);
    LoadBalance balance;
    balance.shares = waterFilling ? waterFillingShares(members) : proportionalShares(members);
    // The pieces of the water filling sum to 1 up to rounding; make the split exact to the last bit we can.
    const double sum = std::accumulate(balance.shares.begin(), balance.shares.end(), 0.0);
    for (double& share : balance.shares)
        share /= sum;

    const double groupSizeMinusTwo = static_cast<double>(members.size()) - 2.0;
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (!hasKnownBandwidth(members[i]))
            continue;
        const double time = (1.0 + groupSizeMinusTwo * balance.shares[i]) / members[i].bandwidth;
        balance.xi = std::max(balance.xi, time);
        if (balance.shares[i] > 0.0)
            balance.slowestAggregatorTime = std::max(balance.slowestAggregatorTime, time);
    }
    return balance;
}

std::vector<std::int64_t> LoadBalancer::apportion(const std::vector<double>& shares, std::int64_t total) {
    if (total < 0 || total > kLargestApportionedTotal)
        throw std::invalid_argument("apportion: the total " + std::to_string(total) +
                                    " is outside [0, 2^53]");
    double sum = 0.0;
    for (std::size_t i = 0; i < shares.size(); ++i) {
        if (!std::isfinite(shares[i]) || shares[i] < 0.0)
            throw std::invalid_argument("apportion: share " + std::to_string(i) + " is " +
                                        std::to_string(shares[i]) + "; shares must be finite and >= 0");
        sum += shares[i];
    }
    std::vector<std::int64_t> counts(shares.size(), 0);
    if (total == 0)
        return counts;
    if (!(sum > 0.0) || !std::isfinite(sum))
        throw std::invalid_argument("apportion: no member has a positive share (or the shares overflow)");

    std::vector<double> remainders(shares.size(), 0.0);
    std::vector<std::size_t> holders; // members with a positive share, the only ones that get elements
    std::int64_t assigned = 0;
    for (std::size_t i = 0; i < shares.size(); ++i) {
        if (shares[i] <= 0.0)
            continue;
        const double quota = shares[i] / sum * static_cast<double>(total);
        const double floor = std::min(std::floor(quota), static_cast<double>(total));
        counts[i] = static_cast<std::int64_t>(floor);
        remainders[i] = quota - floor;
        assigned += counts[i];
        holders.push_back(i);
    }
    // Largest remainder first, ties to the lower index; stable_sort keeps index order among equals.
    std::stable_sort(holders.begin(), holders.end(),
                     [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
    // Rounding in the quotas can leave the floors a few elements off either way; walk the order as often
    // as needed (normally once, at most one element each).
    for (std::size_t k = 0; assigned < total; k = (k + 1) % holders.size(), ++assigned)
        ++counts[holders[k]];
    for (std::size_t k = holders.size(); assigned > total;) {
        k = (k + holders.size() - 1) % holders.size();
        if (counts[holders[k]] > 0) {
            --counts[holders[k]];
            --assigned;
        }
    }
    return counts;
}

} // namespace sahaj::collab
