#pragma once

#include "core/optim/InitialValueRule.h"

#include <map>
#include <string>

namespace torch::nn {
class Module;
}

namespace sahaj::model {

// Hugging Face's ALBERT initialisation (AlbertPreTrainedModel._init_weights) for every submodule of
// `module`, drawn from torch's default generator: Linear and Embedding weights ~ N(0, std), the padding
// row of an embedding and all Linear biases 0, LayerNorm weights 1 and biases 0.
void initializeAlbertWeights(torch::nn::Module& module, double std);

// The same scheme as rules, one per named parameter of `module` (named_parameters() names), for a
// collaboration's replica, which draws its values itself so that every peer starts with the same bits
// (optim::ParameterInitializer). A parameter outside Linear, Embedding and LayerNorm modules keeps the
// constant its module gave it (the MLM head's bias: 0). Throws std::logic_error for one that is not
// constant, which no rule covers.
std::map<std::string, optim::InitialValueRule> albertInitialValueRules(const torch::nn::Module& module,
                                                                       double std);

} // namespace sahaj::model
