#pragma once

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace sahaj::train {

// A trainable tensor with its Hugging Face style name ("albert.embeddings.LayerNorm.weight"); the name
// keys the optimiser state, so a checkpoint can be matched against the model parameter by parameter.
struct NamedParameter {
    std::string name;
    at::Tensor tensor;
};

// Parameters that share one weight decay, like a torch.optim parameter group.
struct LambParameterGroup {
    std::vector<NamedParameter> parameters;
    double weightDecay = 0.0;
};

} // namespace sahaj::train
