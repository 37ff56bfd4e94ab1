#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sahaj::optim {

// One named parameter inside the flat fp32 vector that the engine keeps and the group averages: values
// [offset, offset + length). LAMB's trust ratio is per parameter, so the optimiser must know where each one
// lies; the weight decay is the parameter's group's (docs/training.md, "parameter groups").
struct ParameterSegment {
    std::string name;
    std::size_t offset = 0;
    std::size_t length = 0;
    double weightDecay = 0.0;
};

// Throws std::invalid_argument unless the segments tile [0, total) in order, without gaps or overlaps,
// each non-empty, with unique names and a finite, non-negative weight decay. Returns the total length.
std::size_t validateSegments(const std::vector<ParameterSegment>& segments);

} // namespace sahaj::optim
