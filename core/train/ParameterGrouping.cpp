#include "core/train/ParameterGrouping.h"

#include <torch/nn/module.h>

#include <algorithm>
#include <cctype>

namespace sahaj::train {

namespace {

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

} // namespace

bool ParameterGrouping::excludedFromWeightDecay(const std::string& name) {
    const auto dot = name.rfind('.');
    const std::string leaf = dot == std::string::npos ? name : name.substr(dot + 1);
    const std::string owner = dot == std::string::npos ? std::string() : lowercase(name.substr(0, dot));
    if (leaf == "bias")
        return true;
    if (leaf != "weight")
        return false;
    // Only the owning module's own name counts: "LayerNorm.weight", "full_layer_layer_norm.weight".
    const auto ownerDot = owner.rfind('.');
    const std::string module = ownerDot == std::string::npos ? owner : owner.substr(ownerDot + 1);
    return module.find("layernorm") != std::string::npos || module.find("layer_norm") != std::string::npos;
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
