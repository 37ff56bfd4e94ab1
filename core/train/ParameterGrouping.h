#pragma once

#include "core/train/NamedParameter.h"

#include <string>
#include <vector>

namespace torch::nn {
class Module;
}

namespace sahaj::train {

// Splits parameters into a group with weight decay and one without, by optim::excludedFromWeightDecay.
class ParameterGrouping {
public:
    // optim::excludedFromWeightDecay, for callers that hold tensors.
    static bool excludedFromWeightDecay(const std::string& name);

    // Returns {decayed (weight decay = weightDecay), exempt (weight decay = 0)}, each in the input order;
    // a group may be empty. Parameters that do not require grad are left out.
    static std::vector<LambParameterGroup> split(const std::vector<NamedParameter>& parameters,
                                                 double weightDecay);
    static std::vector<LambParameterGroup> split(const torch::nn::Module& module, double weightDecay);
};

} // namespace sahaj::train
