#pragma once

#include "core/optim/LambOptions.h"
#include "core/optim/ParameterSegment.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sahaj::optim {

// LAMB over the engine's flat fp32 vectors, in plain C++: the same update as torch_optimizer.Lamb (and as
// train::Lamb on tensors; tst_flat_lamb checks both against the same golden values), per parameter:
//   m = beta1 m + (1 - beta1) g;   v = beta2 v + (1 - beta2) g^2
//   update = m / (sqrt(v) + eps) + weight_decay * p
//   step_size = lr * sqrt(1 - beta2^t) / (1 - beta1^t)   (debias; else lr)
//   trust = min(||p||, clamp_value) / ||update||   (1 if either norm is 0, or with adam = true)
//   p -= step_size * trust * update
// Every peer applies it to the same averaged gradient and must end with the same bits whatever its CPU:
// element-wise arithmetic is fp32 in a fixed order, norms are double sums in a fixed order, and nothing
// calls libm (DeterministicMath). Each parameter keeps its own step count t, as torch_optimizer does.
class FlatLamb {
public:
    // Throws std::invalid_argument for invalid options or segments (validateSegments).
    FlatLamb(std::vector<ParameterSegment> segments, LambOptions options);

    std::size_t size() const { return size_; }
    const std::vector<ParameterSegment>& segments() const { return segments_; }
    const LambOptions& options() const { return options_; }
    double learningRate() const { return options_.learningRate; }
    void setLearningRate(double learningRate);

    // One update of every parameter with `gradient`; both spans hold size() values. With `hasGradient`
    // (one flag per segment), a parameter without one is skipped and its step count does not advance, as
    // in torch_optimizer; the engine's averaged gradient always covers every parameter. Throws
    // std::invalid_argument for spans of another size (nothing changes then).
    void step(std::span<float> parameters, std::span<const float> gradient,
              const std::vector<bool>* hasGradient = nullptr);

    // LAMB's moments in the layout of the parameters, zero before the first step, and each parameter's
    // step count (segment order).
    const std::vector<float>& firstMoments() const { return expAvg_; }
    const std::vector<float>& secondMoments() const { return expAvgSq_; }
    const std::vector<std::int64_t>& steps() const { return steps_; }

    // More steps than any run takes (a million a day for 2,700 years); a larger count, from a donor that
    // lies, would overflow at the next step.
    static constexpr std::int64_t kMaxStep = std::int64_t(1) << 40;

    // Replaces the state. Validates everything first and changes nothing on failure: sizes, finite
    // moments, no negative second moment, no step count below 0 or above kMaxStep. Throws
    // std::invalid_argument naming the first problem (and the parameter it is in).
    void setState(std::vector<float> firstMoments, std::vector<float> secondMoments,
                  std::vector<std::int64_t> steps);
    // Replaces the moments only, keeping the step counts (a state averaging round); same checks.
    void setMoments(std::vector<float> firstMoments, std::vector<float> secondMoments);
    // setState's checks, for an optimiser of `segments`, without one (a state checked before it is
    // handed to the thread that owns the optimiser).
    static void checkState(const std::vector<ParameterSegment>& segments,
                           const std::vector<float>& firstMoments, const std::vector<float>& secondMoments,
                           const std::vector<std::int64_t>& steps);
    // The same checks for one parameter: its moments (segment.length values each) and its step count.
    static void checkSegment(const ParameterSegment& segment, const float* firstMoments,
                             const float* secondMoments, std::int64_t step);

private:
    void updateSegment(const ParameterSegment& segment, std::int64_t step, float* parameters,
                       const float* gradient);
    static void checkMoments(const std::vector<ParameterSegment>& segments,
                             const std::vector<float>& firstMoments, const std::vector<float>& secondMoments);

    std::vector<ParameterSegment> segments_;
    LambOptions options_;
    std::size_t size_ = 0;
    std::vector<float> expAvg_;
    std::vector<float> expAvgSq_;
    std::vector<std::int64_t> steps_;
    std::vector<float> update_; // scratch: one segment's update
};

} // namespace sahaj::optim
