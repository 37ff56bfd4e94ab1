#include "core/collab/PartitionPlan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::collab {

namespace {

// Parts of at most partElements covering size elements; divides first so that no sum can overflow.
std::int64_t partsIn(std::int64_t size, std::int64_t partElements) {
    return size / partElements + (size % partElements != 0 ? 1 : 0);
}

} // namespace

PartitionPlan::PartitionPlan(std::vector<std::int64_t> counts, std::int64_t totalElements,
                             std::int64_t partElements)
    : totalElements_(totalElements), partElements_(partElements) {
    if (partElements < 1)
        throw std::invalid_argument("partition plan: parts must hold at least 1 element, not " +
                                    std::to_string(partElements));
    if (totalElements < 0)
        throw std::invalid_argument("partition plan: the vector length " + std::to_string(totalElements) +
                                    " is negative");
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        // Checked against what is left, so the running offset can never overflow.
        if (counts[i] < 0 || counts[i] > totalElements - offset)
            throw std::invalid_argument(
                "partition plan: member " + std::to_string(i) + " has " + std::to_string(counts[i]) +
                " elements; counts must be >= 0 and sum to " + std::to_string(totalElements));
        spans_.push_back({offset, counts[i]});
        offset += counts[i];
        totalParts_ += partsIn(counts[i], partElements);
    }
    if (offset != totalElements)
        throw std::invalid_argument("partition plan: the counts sum to " + std::to_string(offset) +
                                    ", not to the vector length " + std::to_string(totalElements));
}

const ElementRange& PartitionPlan::span(std::int64_t member) const {
    if (member < 0 || member >= memberCount())
        throw std::out_of_range("partition plan: no member " + std::to_string(member) + " in a group of " +
                                std::to_string(memberCount()));
    return spans_[static_cast<std::size_t>(member)];
}

std::int64_t PartitionPlan::partCount(std::int64_t member) const {
    return partsIn(span(member).size, partElements_);
}

ElementRange PartitionPlan::part(std::int64_t member, std::int64_t index) const {
    const ElementRange& whole = span(member);
    if (index < 0 || index >= partCount(member))
        throw std::out_of_range("partition plan: member " + std::to_string(member) + " has no part " +
                                std::to_string(index));
    const std::int64_t start = index * partElements_;
    return {whole.offset + start, std::min(partElements_, whole.size - start)};
}

std::vector<ElementRange> PartitionPlan::parts(std::int64_t member) const {
    std::vector<ElementRange> result;
    const std::int64_t count = partCount(member);
    for (std::int64_t index = 0; index < count; ++index)
        result.push_back(part(member, index));
    return result;
}

} // namespace sahaj::collab
