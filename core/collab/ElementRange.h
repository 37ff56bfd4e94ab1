#pragma once

#include <cstdint>

namespace sahaj::collab {

// A contiguous range [offset, offset + size) of the flat vector the all-reduce averages.
struct ElementRange {
    std::int64_t offset = 0;
    std::int64_t size = 0;

    std::int64_t end() const { return offset + size; }
    bool operator==(const ElementRange&) const = default;
};

} // namespace sahaj::collab
