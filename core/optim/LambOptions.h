#pragma once

namespace sahaj::optim {

// Hyperparameters of LAMB with the meaning they have in torch_optimizer.Lamb. The defaults are the
// sahajBERT recipe (docs/training.md), not torch_optimizer's own defaults (clamp 10, no debiasing).
struct LambOptions {
    double learningRate = 1.76e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    // Added to sqrt(v), outside the square root, as torch_optimizer does.
    double eps = 1e-6;
    // The default weight decay of groups built by ParameterGrouping; each group carries its own value.
    double weightDecay = 0.01;
    // Upper bound of the weight norm in the trust ratio.
    double clampValue = 10000.0;
    // Scale the step size by sqrt(1 - beta2^t) / (1 - beta1^t).
    bool debias = true;
    // Force the trust ratio to 1 (plain Adam with L2-style decay); for comparisons.
    bool adam = false;

    // Throws std::invalid_argument naming the first value out of range.
    void validate() const;
};

} // namespace sahaj::optim
