#pragma once

#include <cstdint>

namespace sahaj::train {

// The figures of one optimiser step, as printed and written to log.jsonl.
struct TrainingStepReport {
    std::int64_t step = 0; // global step just completed (1-based)
    std::int64_t totalSteps = 0;
    double loss = 0.0;    // mlmLoss + sopLoss, as Hugging Face's AlbertForPreTraining
    double mlmLoss = 0.0; // mean over every masked token of the batch
    double sopLoss = 0.0; // mean over every sample of the batch
    double mlmAccuracy = 0.0;
    double sopAccuracy = 0.0;
    double learningRate = 0.0; // used for this step's update
    double gradientNorm = 0.0; // before clipping
    std::int64_t samples = 0;
    std::int64_t tokens = 0; // non-padding tokens
    std::int64_t maskedTokens = 0;
    double samplesPerSecond = 0.0;
    double tokensPerSecond = 0.0;
    // The gradient was not finite: the update was skipped (parameters and optimiser state unchanged).
    bool skipped = false;
};

} // namespace sahaj::train
