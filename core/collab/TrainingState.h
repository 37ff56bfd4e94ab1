#pragma once

#include "core/array/SafeTensorsImage.h"

#include <cstdint>

namespace sahaj::collab {

// What a newcomer needs to train in step with the others: the parameters, the optimiser's state, the
// global epoch and the schedule's position. Host arrays by name (the model's Hugging Face names; the
// optimiser's "<name>.exp_avg", "<name>.exp_avg_sq" and "<name>.step"), in plain C++.
struct TrainingState {
    std::uint64_t epoch = 0;
    std::int64_t step = 0; // optimiser steps taken: the learning-rate schedule's position
    array::SafeTensorsImage::Arrays parameters;
    array::SafeTensorsImage::Arrays optimizer;
};

} // namespace sahaj::collab
