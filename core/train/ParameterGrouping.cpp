#include "core/train/ParameterGrouping.h"

#include "core/optim/WeightDecayExclusion.h"

#include <torch/nn/module.h>

namespace sahaj::train {

bool ParameterGrouping::excludedFromWeightDecay(const std::string& name) {
    return optim::excludedFromWeightDecay(name);
}

std::vector<LambParameterGroup> ParameterGrouping::split(const std::vector<NamedParameter>& parameters,
                                                         double weightDecay) {
    std::vector<LambParameterGroup> groups(2);
    groups[0].weightDecay = weightDecay;
    groups[1].weightDecay = 0.0;
    for (const auto& parameter : parameters) {
        if (!parameter.tensor.requires_grad())
            continue;
        groups[excludedFromWeightDecay(parameter.name) ? 1 : 0].parameters.push_back(parameter);
    }
    return groups;
}

std::vector<LambParameterGroup> ParameterGrouping::split(const torch::nn::Module& module,
                                                         double weightDecay) {
    std::vector<NamedParameter> parameters;
    for (const auto& item : module.named_parameters(/*recurse=*/true))
        parameters.push_back({item.key(), item.value()});
    return split(parameters, weightDecay);
}

} // namespace sahaj::train
