#pragma once

#include "core/collab/ElementRange.h"

#include <cstdint>
#include <vector>

namespace sahaj::collab {

// Where each member's span of the flat vector lies and how it is streamed. Member i aggregates the
// contiguous span [offset_i, offset_i + count_i), spans laid out in member order from 0, and every span is
// cut into parts of at most partElements values (the last part of a span may be shorter) so that the
// all-reduce can stream and reduce it piece by piece. A member with count 0 has an empty span and no parts.
class PartitionPlan {
public:
    // The number of fp16 values in 128 KiB. Hivemind streams 512 KiB; parts a quarter that size keep
    // each aggregator's averages closer behind the parts it receives, which shortens the start and the
    // end of a round where a link carries only one of the two (measured in docs/collaboration.md).
    static constexpr std::int64_t kDefaultPartElements = 128 * 1024 / 2;

    // counts: elements per member (LoadBalancer::apportion). Throws std::invalid_argument unless every
    // count is >= 0, they sum to exactly totalElements and partElements >= 1.
    PartitionPlan(std::vector<std::int64_t> counts, std::int64_t totalElements,
                  std::int64_t partElements = kDefaultPartElements);

    std::int64_t memberCount() const { return static_cast<std::int64_t>(spans_.size()); }
    std::int64_t totalElements() const { return totalElements_; }
    std::int64_t partElements() const { return partElements_; }
    // Parts over all members.
    std::int64_t totalParts() const { return totalParts_; }

    // Throw std::out_of_range for a member or part index outside the plan.
    const ElementRange& span(std::int64_t member) const;
    std::int64_t partCount(std::int64_t member) const;
    ElementRange part(std::int64_t member, std::int64_t index) const;
    std::vector<ElementRange> parts(std::int64_t member) const;

private:
    std::vector<ElementRange> spans_;
    std::int64_t totalElements_;
    std::int64_t partElements_;
    std::int64_t totalParts_ = 0;
};

} // namespace sahaj::collab
