#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace sahaj::collab {

// The median of `values` (reordered); for an even number, the mean of the two middle values.
inline double medianOf(std::vector<double>& values) {
    const std::size_t half = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half), values.end());
    const double upper = values[half];
    if (values.size() % 2 == 1)
        return upper;
    const double lower =
        *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half));
    return 0.5 * (lower + upper);
}

// The coordinate-wise median of `count` values from each of `vectors`: what no minority of them can move
// past the others' values (CenteredClip's starting point, StateMedian's result).
inline std::vector<double> coordinateMedian(const std::vector<const float*>& vectors, std::size_t count) {
    std::vector<double> median(count);
    std::vector<double> column(vectors.size());
    for (std::size_t j = 0; j < count; ++j) {
        for (std::size_t i = 0; i < vectors.size(); ++i)
            column[i] = vectors[i][j];
        median[j] = medianOf(column);
    }
    return median;
}

} // namespace sahaj::collab
