#pragma once

#include "core/model/AlbertConfig.h"

#include <cstdint>

namespace sahaj::bench {

// Analytic floating-point operation counts of ALBERT pre-training (one multiply-add = 2 FLOPs), the
// convention used for model FLOP utilisation: only matrix products count, elementwise work does not.
struct ModelFlops {
    // Forward FLOPs for one batch of `batch` sequences of `sequence` tokens, of which `mlmPositions` in all
    // get MLM logits (the head's vocabulary projection is the single largest matrix in the model).
    static double forward(const model::AlbertConfig& config, std::int64_t batch, std::int64_t sequence,
                          std::int64_t mlmPositions);
    // Forward + backward: the backward pass costs twice the forward (gradients for inputs and weights).
    static double training(const model::AlbertConfig& config, std::int64_t batch, std::int64_t sequence,
                           std::int64_t mlmPositions) {
        return 3.0 * forward(config, batch, sequence, mlmPositions);
    }
};

} // namespace sahaj::bench
