#pragma once

#include "core/optim/LambOptions.h"
#include "core/train/NamedParameter.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace sahaj::train {

// LAMB (You et al. 2019) with the exact semantics of torch_optimizer.Lamb, which sahajBERT trained with:
//   m = beta1 m + (1 - beta1) g;   v = beta2 v + (1 - beta2) g^2
//   update = m / (sqrt(v) + eps) + weight_decay * p
//   step_size = lr * sqrt(1 - beta2^t) / (1 - beta1^t)   (debias; else lr)
//   trust = min(||p||, clamp_value) / ||update||   (1 if either norm is 0, or with adam = true)
//   p -= step_size * trust * update
// Parameters whose gradient is undefined are skipped, and their step count does not advance (each
// parameter has its own t, as in torch_optimizer). The state is keyed by parameter name so that it can be
// exported to and imported from named tensors (a safetensors file in a checkpoint).
class Lamb {
public:
    // Throws std::invalid_argument for invalid options, duplicate names, undefined or non-floating tensors.
    Lamb(std::vector<LambParameterGroup> groups, optim::LambOptions options);

    // One update of every parameter that has a gradient. Runs without recording autograd history.
    void step();
    // Resets every gradient to undefined, so that a later backward allocates fresh ones.
    void zeroGrad();

    double learningRate() const { return options_.learningRate; }
    // The schedule calls this before each step.
    void setLearningRate(double learningRate);
    const optim::LambOptions& options() const { return options_; }
    const std::vector<LambParameterGroup>& groups() const { return groups_; }
    std::vector<at::Tensor> parameters() const;
    // Number of updates applied to the named parameter so far (0 before its first gradient).
    std::int64_t parameterStep(const std::string& name) const;

    // Every parameter's state as "<name>.exp_avg", "<name>.exp_avg_sq" (same shape and dtype as the
    // parameter, zero before the first update) and "<name>.step" (int64, shape [1]), on the CPU.
    std::map<std::string, at::Tensor> exportState() const;
    // Restores a state written by exportState(). Validates everything before changing anything: the set of
    // names must be exactly this optimiser's, shapes must match, steps must be non-negative integers and
    // moments finite. Throws std::runtime_error naming the first problem.
    void importState(const std::map<std::string, at::Tensor>& state);

    static constexpr const char* kExpAvgSuffix = ".exp_avg";
    static constexpr const char* kExpAvgSqSuffix = ".exp_avg_sq";
    static constexpr const char* kStepSuffix = ".step";

private:
    struct ParameterState {
        std::int64_t step = 0;
        at::Tensor expAvg;
        at::Tensor expAvgSq;
    };

    void update(const at::Tensor& parameter, ParameterState& state, double weightDecay) const;

    std::vector<LambParameterGroup> groups_;
    optim::LambOptions options_;
    std::unordered_map<std::string, ParameterState> state_;
};

} // namespace sahaj::train
