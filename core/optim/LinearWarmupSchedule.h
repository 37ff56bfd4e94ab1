#pragma once

#include <cstdint>

namespace sahaj::optim {

// The learning rate of Hugging Face's get_linear_schedule_with_warmup, as a function of the global step:
// it rises linearly from 0 to the peak over the warmup steps, then falls linearly to 0 at the total step
// count and stays there.
//
// The argument is the number of optimiser steps completed before the update, as with torch's LambdaLR
// (stepped after each optimizer.step()): the first update uses learningRate(0), which is 0 when there is a
// warmup. Driving it by the global step (not a local counter) keeps every peer, and a resumed run, on the
// same curve.
class LinearWarmupSchedule {
public:
    // Throws std::invalid_argument unless peak >= 0 (finite), warmupSteps >= 0, totalSteps >= 1.
    LinearWarmupSchedule(double peakLearningRate, std::int64_t warmupSteps, std::int64_t totalSteps);

    // The multiplier of the peak learning rate, in [0, 1].
    double factor(std::int64_t completedSteps) const;
    double learningRate(std::int64_t completedSteps) const { return peak_ * factor(completedSteps); }

    double peakLearningRate() const { return peak_; }
    std::int64_t warmupSteps() const { return warmup_; }
    std::int64_t totalSteps() const { return total_; }

private:
    double peak_;
    std::int64_t warmup_;
    std::int64_t total_;
};

} // namespace sahaj::optim
