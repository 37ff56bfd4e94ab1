#pragma once

#include "core/collab/ElementRange.h"
#include "core/collab/GroupSpec.h"

#include <cstdint>

namespace sahaj::collab {

// The fields a TensorPart (member → aggregator) and an AveragedPart (aggregator → member) share: which
// group and epoch, whose span, which part, where it lies and how it is encoded. One place fills them, so
// that what senders write and what receivers check (AllReduceRound) cannot drift apart.
template <typename WirePart>
void fillPartHeader(WirePart& part, const GroupSpec& spec, std::size_t span, std::int64_t index,
                    const ElementRange& range) {
    part.set_group_id(spec.groupId);
    part.set_epoch(spec.epoch);
    part.set_span(static_cast<std::uint32_t>(span));
    part.set_part(static_cast<std::uint32_t>(index));
    part.set_offset(static_cast<std::uint64_t>(range.offset));
    part.set_count(static_cast<std::uint32_t>(range.size));
    *part.mutable_encoding() = spec.encoding;
}

} // namespace sahaj::collab
