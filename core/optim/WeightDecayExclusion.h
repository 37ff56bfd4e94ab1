#pragma once

#include <string>

namespace sahaj::optim {

// The BERT/ALBERT convention for which parameters get no weight decay: biases and the weights of every
// layer normalisation (decaying a LayerNorm gain towards 0 fights the normalisation; decaying a bias is no
// regularisation at all).
//
// A name is exempt when its last component is "bias", or when it is the "weight" of a module whose name
// contains "LayerNorm" or "layer_norm" (any case). This also exempts ALBERT's
// "full_layer_layer_norm.weight", which the substring rule ["bias", "LayerNorm.weight"] of the Hugging
// Face examples misses although it is a LayerNorm gain like the others.
bool excludedFromWeightDecay(const std::string& name);

} // namespace sahaj::optim
