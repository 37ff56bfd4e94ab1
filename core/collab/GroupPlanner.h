#pragma once

#include "core/collab/GroupSpec.h"

#include <cstdint>
#include <vector>

namespace sahaj::collab {

// What a leader decides at the end of gathering: the members in peer-id order, each one's span from the
// load balancer (clients aggregate nothing), a fresh random group id, and the encoding and part size.
class GroupPlanner {
public:
    // Throws std::invalid_argument for no members, a member listed twice, or no member that can aggregate.
    // A group of one gets the whole vector as its span (it needs no all-reduce: the caller keeps its
    // values).
    static GroupSpec plan(std::vector<GroupMember> members, std::uint64_t epoch,
                          const wire::Encoding& encoding, std::int64_t vectorSize, std::int64_t partElements);
};

} // namespace sahaj::collab
