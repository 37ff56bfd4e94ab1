#pragma once

#include "core/model/SafeTensors.h"

#include <cstdint>

namespace sahaj::collab {

// What a newcomer needs to train in step with the others: the parameters, the optimiser's state, the
// global epoch and the schedule's position. Tensors by name (the model's Hugging Face names; the
// optimiser's Lamb::exportState names).
struct TrainingState {
    std::uint64_t epoch = 0;
    std::int64_t step = 0; // optimiser steps taken: the learning-rate schedule's position
    model::SafeTensors::Tensors parameters;
    model::SafeTensors::Tensors optimizer;
};

} // namespace sahaj::collab
