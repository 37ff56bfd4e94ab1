#include "core/train/Lamb.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <stdexcept>
#include <unordered_set>

namespace sahaj::train {

namespace {

std::string shapeText(at::IntArrayRef sizes) {
    std::string text = "[";
    for (size_t i = 0; i < sizes.size(); ++i)
        text += (i ? ", " : "") + std::to_string(sizes[i]);
    return text + "]";
}

} // namespace

Lamb::Lamb(std::vector<LambParameterGroup> groups, optim::LambOptions options)
    : groups_(std::move(groups)), options_(options) {
    options_.validate();
    for (const auto& group : groups_) {
        if (!std::isfinite(group.weightDecay) || group.weightDecay < 0.0)
            throw std::invalid_argument("LAMB: invalid weight decay of a parameter group: " +
                                        std::to_string(group.weightDecay));
        for (const auto& parameter : group.parameters) {
            if (!parameter.tensor.defined())
                throw std::invalid_argument("LAMB: parameter '" + parameter.name + "' is undefined");
            if (!parameter.tensor.is_floating_point())
                throw std::invalid_argument("LAMB: parameter '" + parameter.name + "' is not floating point");
            if (!state_.emplace(parameter.name, ParameterState{}).second)
                throw std::invalid_argument("LAMB: parameter name '" + parameter.name + "' appears twice");
        }
    }
}

void Lamb::setLearningRate(double learningRate) {
    if (!std::isfinite(learningRate) || learningRate < 0.0)
        throw std::invalid_argument("LAMB: invalid learning rate: " + std::to_string(learningRate));
    options_.learningRate = learningRate;
}

std::vector<at::Tensor> Lamb::parameters() const {
    std::vector<at::Tensor> all;
    for (const auto& group : groups_)
        for (const auto& parameter : group.parameters)
            all.push_back(parameter.tensor);
    return all;
}

std::int64_t Lamb::parameterStep(const std::string& name) const {
    const auto it = state_.find(name);
    if (it == state_.end())
        throw std::out_of_range("LAMB: no parameter named '" + name + "'");
    return it->second.step;
}

void Lamb::step() {
    // The update must not become part of any autograd graph (the parameters require grad).
    c10::NoGradGuard noGrad;
    for (const auto& group : groups_) {
        for (const auto& parameter : group.parameters) {
            if (!parameter.tensor.grad().defined())
                continue;
            update(parameter.tensor, state_.at(parameter.name), group.weightDecay);
        }
    }
}

void Lamb::update(const at::Tensor& parameter, ParameterState& state, double weightDecay) const {
    const at::Tensor& grad = parameter.grad();
    if (grad.is_sparse())
        throw std::runtime_error("LAMB does not support sparse gradients");
    if (!state.expAvg.defined()) {
        state.expAvg = at::zeros_like(parameter, at::MemoryFormat::Preserve);
        state.expAvgSq = at::zeros_like(parameter, at::MemoryFormat::Preserve);
    }
    ++state.step;
    const double t = static_cast<double>(state.step);
    state.expAvg.mul_(options_.beta1).add_(grad, 1.0 - options_.beta1);
    state.expAvgSq.mul_(options_.beta2).addcmul_(grad, grad, 1.0 - options_.beta2);

    // Debiasing scales the step size only: the trust ratio sees the raw moments, as in torch_optimizer.
    double stepSize = options_.learningRate;
    if (options_.debias)
        stepSize *= std::sqrt(1.0 - std::pow(options_.beta2, t)) / (1.0 - std::pow(options_.beta1, t));

    at::Tensor adamStep = state.expAvg / state.expAvgSq.sqrt().add_(options_.eps);
    if (weightDecay != 0.0)
        adamStep.add_(parameter, weightDecay);

    at::Tensor trustRatio;
    if (options_.adam) {
        trustRatio = at::ones({}, parameter.options());
    } else {
        // Kept as tensors so that a GPU never waits for the host in the middle of the update.
        const at::Tensor weightNorm = parameter.norm().clamp(0.0, options_.clampValue);
        const at::Tensor adamNorm = adamStep.norm();
        const at::Tensor degenerate = weightNorm.eq(0).logical_or(adamNorm.eq(0));
        trustRatio = at::where(degenerate, at::ones_like(weightNorm), weightNorm / adamNorm);
    }
    parameter.sub_(adamStep.mul_(trustRatio * stepSize));
}

void Lamb::zeroGrad() {
    for (const auto& group : groups_) {
        for (const auto& parameter : group.parameters) {
            if (parameter.tensor.grad().defined())
                parameter.tensor.mutable_grad().reset();
        }
    }
}

std::map<std::string, at::Tensor> Lamb::exportState() const {
    std::map<std::string, at::Tensor> out;
    const auto cpu = [](const at::Tensor& t) { return t.detach().to(at::kCPU).clone(); };
    for (const auto& group : groups_) {
        for (const auto& parameter : group.parameters) {
            const ParameterState& state = state_.at(parameter.name);
            const at::Tensor zeros =
                at::zeros(parameter.tensor.sizes(), parameter.tensor.options().device(at::kCPU));
            out[parameter.name + kExpAvgSuffix] = state.expAvg.defined() ? cpu(state.expAvg) : zeros;
            out[parameter.name + kExpAvgSqSuffix] =
                state.expAvgSq.defined() ? cpu(state.expAvgSq) : zeros.clone();
            out[parameter.name + kStepSuffix] =
                at::full({1}, state.step, at::TensorOptions().dtype(at::kLong));
        }
    }
    return out;
}

void Lamb::importState(const std::map<std::string, at::Tensor>& state) {
    const auto fail = [](const std::string& message) {
        throw std::runtime_error("optimizer state: " + message);
    };
    const auto find = [&](const std::string& key) -> const at::Tensor& {
        const auto it = state.find(key);
        if (it == state.end())
            fail("missing tensor '" + key + "'");
        if (!it->second.defined())
            fail("tensor '" + key + "' is undefined");
        return it->second;
    };

    // First validate everything and build the new state, then swap it in: a bad file changes nothing.
    std::unordered_map<std::string, ParameterState> restored;
    std::unordered_set<std::string> expectedKeys;
    for (const auto& group : groups_) {
        for (const auto& parameter : group.parameters) {
            const std::string& name = parameter.name;
            for (const char* suffix : {kExpAvgSuffix, kExpAvgSqSuffix, kStepSuffix})
                expectedKeys.insert(name + suffix);
            const at::Tensor& step = find(name + kStepSuffix);
            if (step.numel() != 1 || step.is_floating_point() || step.is_complex() ||
                step.scalar_type() == at::kBool)
                fail("'" + name + kStepSuffix + "' must be one integer");
            const std::int64_t steps = step.item<std::int64_t>();
            if (steps < 0)
                fail("'" + name + kStepSuffix + "' is negative: " + std::to_string(steps));

            ParameterState restoredState;
            restoredState.step = steps;
            for (const char* suffix : {kExpAvgSuffix, kExpAvgSqSuffix}) {
                const at::Tensor& moment = find(name + suffix);
                if (moment.sizes() != parameter.tensor.sizes())
                    fail("'" + name + suffix + "' has shape " + shapeText(moment.sizes()) +
                         ", the parameter has " + shapeText(parameter.tensor.sizes()));
                if (!moment.is_floating_point())
                    fail("'" + name + suffix + "' is not floating point");
                if (!moment.isfinite().all().item<bool>())
                    fail("'" + name + suffix + "' contains non-finite values");
                at::Tensor copy =
                    moment.to(parameter.tensor.options(), /*non_blocking=*/false, /*copy=*/true);
                (suffix == std::string(kExpAvgSuffix) ? restoredState.expAvg : restoredState.expAvgSq) = copy;
            }
            if (restoredState.expAvgSq.lt(0).any().item<bool>())
                fail("'" + name + kExpAvgSqSuffix + "' has negative values");
            restored.emplace(name, std::move(restoredState));
        }
    }
    for (const auto& [key, tensor] : state) {
        if (!expectedKeys.count(key))
            fail("unexpected tensor '" + key + "' (no such parameter in the model)");
    }
    state_ = std::move(restored);
}

} // namespace sahaj::train
