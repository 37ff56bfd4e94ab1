#include "core/optim/FlatLamb.h"

#include "core/optim/DeterministicMath.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sahaj::optim {

FlatLamb::FlatLamb(std::vector<ParameterSegment> segments, LambOptions options)
    : segments_(std::move(segments)), options_(options) {
    options_.validate();
    size_ = validateSegments(segments_);
    expAvg_.assign(size_, 0.0f);
    expAvgSq_.assign(size_, 0.0f);
    steps_.assign(segments_.size(), 0);
    std::size_t longest = 0;
    for (const ParameterSegment& segment : segments_)
        longest = std::max(longest, segment.length);
    update_.resize(longest);
}

void FlatLamb::setLearningRate(double learningRate) {
    if (!std::isfinite(learningRate) || learningRate < 0.0)
        throw std::invalid_argument("LAMB: invalid learning rate: " + std::to_string(learningRate));
    options_.learningRate = learningRate;
}

void FlatLamb::step(std::span<float> parameters, std::span<const float> gradient,
                    const std::vector<bool>* hasGradient) {
    if (parameters.size() != size_ || gradient.size() != size_)
        throw std::invalid_argument("LAMB: a step over " + std::to_string(parameters.size()) +
                                    " parameters and " + std::to_string(gradient.size()) +
                                    " gradient values, the optimiser has " + std::to_string(size_));
    if (hasGradient && hasGradient->size() != segments_.size())
        throw std::invalid_argument("LAMB: gradient flags for " + std::to_string(hasGradient->size()) +
                                    " parameters, the optimiser has " + std::to_string(segments_.size()));
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        if (hasGradient && !(*hasGradient)[i])
            continue;
        ++steps_[i];
        updateSegment(segments_[i], steps_[i], parameters.data(), gradient.data());
    }
}

void FlatLamb::updateSegment(const ParameterSegment& segment, std::int64_t step, float* parameters,
                             const float* gradient) {
    float* p = parameters + segment.offset;
    const float* g = gradient + segment.offset;
    float* m = expAvg_.data() + segment.offset;
    float* v = expAvgSq_.data() + segment.offset;
    float* u = update_.data();
    const std::size_t n = segment.length;

    const float beta1 = static_cast<float>(options_.beta1);
    const float beta2 = static_cast<float>(options_.beta2);
    const float oneMinusBeta1 = static_cast<float>(1.0 - options_.beta1);
    const float oneMinusBeta2 = static_cast<float>(1.0 - options_.beta2);
    const float eps = static_cast<float>(options_.eps);
    const float decay = static_cast<float>(segment.weightDecay);
    for (std::size_t i = 0; i < n; ++i) {
        m[i] = m[i] * beta1 + g[i] * oneMinusBeta1;
        v[i] = v[i] * beta2 + (g[i] * g[i]) * oneMinusBeta2;
        u[i] = m[i] / (std::sqrt(v[i]) + eps);
    }
    if (segment.weightDecay != 0.0)
        for (std::size_t i = 0; i < n; ++i)
            u[i] = u[i] + p[i] * decay;

    // Debiasing scales the step size only: the trust ratio sees the raw moments, as in torch_optimizer.
    double stepSize = options_.learningRate;
    if (options_.debias) {
        const auto t = static_cast<std::uint64_t>(step);
        stepSize *= std::sqrt(1.0 - DeterministicMath::power(options_.beta2, t)) /
                    (1.0 - DeterministicMath::power(options_.beta1, t));
    }
    double trust = 1.0;
    if (!options_.adam) {
        const double weightNorm =
            std::min(std::sqrt(DeterministicMath::sumOfSquares(p, n)), options_.clampValue);
        const double updateNorm = std::sqrt(DeterministicMath::sumOfSquares(u, n));
        if (weightNorm != 0.0 && updateNorm != 0.0)
            trust = weightNorm / updateNorm;
    }
    const float scale = static_cast<float>(stepSize * trust);
    for (std::size_t i = 0; i < n; ++i)
        p[i] = p[i] - u[i] * scale;
}

namespace {

void checkMomentValues(const ParameterSegment& segment, const float* firstMoments,
                       const float* secondMoments) {
    for (std::size_t i = 0; i < segment.length; ++i) {
        if (!std::isfinite(firstMoments[i]) || !std::isfinite(secondMoments[i]))
            throw std::invalid_argument("optimizer state: '" + segment.name + "' has non-finite moments");
        if (secondMoments[i] < 0.0f)
            throw std::invalid_argument("optimizer state: '" + segment.name +
                                        "' has negative second moments");
    }
}

void checkStep(const ParameterSegment& segment, std::int64_t step) {
    if (step < 0)
        throw std::invalid_argument("optimizer state: '" + segment.name + "' has a negative step " +
                                    std::to_string(step));
    if (step > FlatLamb::kMaxStep)
        throw std::invalid_argument("optimizer state: '" + segment.name +
                                    "' has a step count beyond any run: " + std::to_string(step));
}

} // namespace

void FlatLamb::checkMoments(const std::vector<ParameterSegment>& segments,
                            const std::vector<float>& firstMoments, const std::vector<float>& secondMoments) {
    const std::size_t size = segments.empty() ? 0 : segments.back().offset + segments.back().length;
    if (firstMoments.size() != size || secondMoments.size() != size)
        throw std::invalid_argument("optimizer state: moments of " + std::to_string(firstMoments.size()) +
                                    " and " + std::to_string(secondMoments.size()) +
                                    " values for an optimiser of " + std::to_string(size));
    for (const ParameterSegment& segment : segments)
        checkMomentValues(segment, firstMoments.data() + segment.offset,
                          secondMoments.data() + segment.offset);
}

void FlatLamb::checkState(const std::vector<ParameterSegment>& segments,
                          const std::vector<float>& firstMoments, const std::vector<float>& secondMoments,
                          const std::vector<std::int64_t>& steps) {
    checkMoments(segments, firstMoments, secondMoments);
    if (steps.size() != segments.size())
        throw std::invalid_argument("optimizer state: " + std::to_string(steps.size()) + " step counts for " +
                                    std::to_string(segments.size()) + " parameters");
    for (std::size_t i = 0; i < steps.size(); ++i)
        checkStep(segments[i], steps[i]);
}

void FlatLamb::checkSegment(const ParameterSegment& segment, const float* firstMoments,
                            const float* secondMoments, std::int64_t step) {
    checkMomentValues(segment, firstMoments, secondMoments);
    checkStep(segment, step);
}

void FlatLamb::setState(std::vector<float> firstMoments, std::vector<float> secondMoments,
                        std::vector<std::int64_t> steps) {
    checkState(segments_, firstMoments, secondMoments, steps);
    expAvg_ = std::move(firstMoments);
    expAvgSq_ = std::move(secondMoments);
    steps_ = std::move(steps);
}

void FlatLamb::setMoments(std::vector<float> firstMoments, std::vector<float> secondMoments) {
    checkMoments(segments_, firstMoments, secondMoments);
    expAvg_ = std::move(firstMoments);
    expAvgSq_ = std::move(secondMoments);
}

} // namespace sahaj::optim
