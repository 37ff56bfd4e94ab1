#pragma once

#include "core/train/NamedParameter.h"

#include <string>
#include <vector>

namespace torch::nn {
class Module;
}

namespace sahaj::train {

// Splits parameters into a group with weight decay and one without, the BERT/ALBERT convention: biases
// and the weights of every layer normalisation get no decay (decaying a LayerNorm gain towards 0 fights
// the normalisation; decaying a bias is no regularisation at all).
//
// A name is exempt when its last component is "bias", or when it is the "weight" of a module whose name
// contains "LayerNorm" or "layer_norm" (any case). This also exempts ALBERT's
// "full_layer_layer_norm.weight", which the substring rule ["bias", "LayerNorm.weight"] of the Hugging
// Face examples misses although it is a LayerNorm gain like the others.
class ParameterGrouping {
public:
    static bool excludedFromWeightDecay(const std::string& name);

    // Returns {decayed (weight decay = weightDecay), exempt (weight decay = 0)}, each in the input order;
    // a group may be empty. Parameters that do not require grad are left out.
    static std::vector<LambParameterGroup> split(const std::vector<NamedParameter>& parameters,
                                                 double weightDecay);
    static std::vector<LambParameterGroup> split(const torch::nn::Module& module, double weightDecay);
};

} // namespace sahaj::train
