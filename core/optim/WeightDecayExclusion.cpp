#include "core/optim/WeightDecayExclusion.h"

#include <algorithm>
#include <cctype>

namespace sahaj::optim {

namespace {

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

} // namespace

bool excludedFromWeightDecay(const std::string& name) {
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

} // namespace sahaj::optim
