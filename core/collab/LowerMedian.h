#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace sahaj::collab {

// The lower median of `values` (the smaller middle one of an even count), nothing for no values: what
// bounds one peer's claim by the others' (ProgressAggregator, WeightBounds). Of one honest peer and one
// liar it is the honest figure whenever that is the smaller.
inline std::optional<double> lowerMedian(std::vector<double> values) {
    if (values.empty())
        return std::nullopt;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

} // namespace sahaj::collab
