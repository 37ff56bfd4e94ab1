#pragma once

#include "core/collab/TrainingState.h"

#include <vector>

namespace sahaj::collab {

// The elementwise median of the states of one epoch that several donors sent, when no state had a
// majority of the donors behind it (StateVote): every parameter, moment and step count is the median of
// the donors' values, so one lying donor of three moves none of them past an honest donor's value.
// Floating arrays come out as fp32, the type a snapshot stores them in. Second moments stay non-negative
// and every value finite when the inputs are (StateSnapshot checked them).
class StateMedian {
public:
    // Throws std::invalid_argument when the states are not of one epoch and one layout (names, types,
    // shapes), or are fewer than one. Memory: one state more than the inputs, and one array's values per
    // input as fp32 at a time.
    static TrainingState of(const std::vector<TrainingState>& states);
};

} // namespace sahaj::collab
