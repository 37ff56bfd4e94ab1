#pragma once

#include "core/collab/LoadBalance.h"

#include <cstdint>
#include <vector>

namespace sahaj::collab {

// Splits the flat vector of a butterfly all-reduce among the members of a group (DeDLOC's adaptive
// partitions, hivemind's load_balance_peers).
//
// Member i of a group of G aggregates share w_i of the V values. It sends the V·(1 - w_i) values of the
// other spans and receives V·(G - 1)·w_i values to aggregate, then returns as many averages and receives
// V·(1 - w_i) back, so it moves V·(1 + (G - 2)·w_i) values each way, in time (1 + (G - 2)·w_i) / b_i per
// value of V. solve() minimises the slowest member's time ξ:
//
//     minimise ξ  subject to  Σ w_i = 1,  w_i >= 0,
//                             w_i = 0 where member i cannot aggregate or its bandwidth b_i is 0,
//                             ξ >= (1 + (G - 2)·w_i) / b_i  for every member with b_i > 0.
//
// Clients are in the last line: with share 0 their own traffic, 1/b_i, still bounds the round. A member with
// b_i = 0 has an unknown bandwidth and is treated as hivemind does: share 0 and no time constraint.
//
// G > 2, water filling. For a level λ let w_i(λ) = clamp((λ·b_i - 1)/(G - 2), 0, 1) for the aggregators
// with b_i > 0 (0 for everyone else): the largest share member i can take while its time stays <= λ.
// S(λ) = Σ w_i(λ) is continuous, non-decreasing and linear between the breakpoints 1/b_i and (G - 1)/b_i;
// λ* is the smallest level with S(λ) >= 1, found exactly by sorting the breakpoints, taking the first one
// where S >= 1 and solving the linear piece before it. Then ξ* = max(max over b_i > 0 of 1/b_i, λ*): no
// split beats a member's own traffic 1/b_i, no split lets all its aggregators finish before λ* (below),
// and the split w(λ*) achieves both bounds.
//
// Tie-break. When ξ* = λ* the water-filling split w(λ*) is the only optimum. When a slow member's 1/b_i
// exceeds λ*, every split with all times <= ξ* is optimal; among them we take the one that next minimises
// the slowest aggregator's time (the largest time among members with a positive share), which is exactly
// w(λ*), and it is unique:
//   - w(λ*) achieves λ*: a member with 0 < w_i(λ*) < 1 has time exactly λ*, one capped at 1 has time
//     (G - 1)/b_i <= λ*.
//   - No split does better: if every member with w_i > 0 took less than μ < λ*, then w_i <= w_i(μ) for all
//     i and Σ w_i <= S(μ) < 1, not a split.
//   - Any split achieving λ* has w_i <= w_i(λ*) for all i (the definition of w_i(λ*)); summing to 1 = S(λ*)
//     forces equality.
// So the fast members finish as early as the vector allows, which leaves the most slack for the slow
// member's transfers and for bandwidth estimates that turn out optimistic.
//
// G = 2: each member moves V each way whatever the split, so every split takes max 1/b_i. We split in
// proportion to the aggregators' bandwidths, so that the aggregation work and the uneven link use follow
// the faster member should the estimates be off. G = 1: the only member keeps everything (it moves nothing,
// ξ = 0), whatever its bandwidth.
//
// When no aggregator has a known bandwidth (all b_i = 0 among members that can aggregate), the constraints
// leave no split; as hivemind does for peers of unknown bandwidth, the aggregators then share equally.
class LoadBalancer {
public:
    // Throws std::invalid_argument when no member can aggregate ("a group needs at least one member that
    // accepts connections") or a bandwidth is negative, NaN, infinite or too small to invert.
    static LoadBalance solve(const std::vector<MemberBandwidth>& members);

    // Element counts summing to exactly `total` by largest-remainder apportionment of total·shares (shares
    // are normalised by their sum): floors first, then +1 to the largest fractional parts, ties to the lower
    // index. A member with share 0 always gets 0. Throws std::invalid_argument for a negative or non-finite
    // share, shares that are all 0 while total > 0, or a total outside [0, 2^53].
    static std::vector<std::int64_t> apportion(const std::vector<double>& shares, std::int64_t total);
};

} // namespace sahaj::collab
