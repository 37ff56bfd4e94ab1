#pragma once

#include <vector>

namespace sahaj::collab {

// What the load balancer knows of one group member.
struct MemberBandwidth {
    // Values per second the member can move each way (any unit, the same for the whole group); 0 means
    // unknown: the member then gets no share and does not bound the round.
    double bandwidth = 0.0;
    // Whether the member accepts connections and can therefore aggregate a span; clients cannot.
    bool canAggregate = false;
};

// The split of the flat vector among the members of a group (see LoadBalancer).
struct LoadBalance {
    // Member i aggregates this fraction of the vector; the shares sum to 1.
    std::vector<double> shares;
    // ξ*: the round's time per value of the vector, max over members with a known bandwidth of
    // (1 + (G - 2)·share) / bandwidth; the least any split can achieve.
    double xi = 0.0;
    // The same time taken only over members with a positive share and a known bandwidth (0 when there are
    // none): the tie-break the split minimises after ξ.
    double slowestAggregatorTime = 0.0;
};

} // namespace sahaj::collab
