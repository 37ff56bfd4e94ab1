#include "core/optim/LinearWarmupSchedule.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sahaj::optim {

LinearWarmupSchedule::LinearWarmupSchedule(double peakLearningRate, std::int64_t warmupSteps,
                                           std::int64_t totalSteps)
    : peak_(peakLearningRate), warmup_(warmupSteps), total_(totalSteps) {
    if (!std::isfinite(peakLearningRate) || peakLearningRate < 0.0)
        throw std::invalid_argument("schedule: invalid peak learning rate " +
                                    std::to_string(peakLearningRate));
    if (warmupSteps < 0)
        throw std::invalid_argument("schedule: warmup steps must be >= 0, got " +
                                    std::to_string(warmupSteps));
    if (totalSteps < 1)
        throw std::invalid_argument("schedule: total steps must be >= 1, got " + std::to_string(totalSteps));
}

double LinearWarmupSchedule::factor(std::int64_t completedSteps) const {
    const std::int64_t step = std::max<std::int64_t>(completedSteps, 0);
    if (step < warmup_)
        return static_cast<double>(step) / static_cast<double>(std::max<std::int64_t>(1, warmup_));
    // Same expression as Hugging Face, including max(1, ...) when the warmup covers the whole run.
    const double remaining = static_cast<double>(total_ - step);
    return std::max(0.0, remaining / static_cast<double>(std::max<std::int64_t>(1, total_ - warmup_)));
}

} // namespace sahaj::optim
