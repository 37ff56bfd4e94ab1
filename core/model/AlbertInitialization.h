#pragma once

namespace torch::nn {
class Module;
}

namespace sahaj::model {

// Hugging Face's ALBERT initialisation (AlbertPreTrainedModel._init_weights) for every submodule of
// `module`, drawn from torch's default generator: Linear and Embedding weights ~ N(0, std), the padding
// row of an embedding and all Linear biases 0, LayerNorm weights 1 and biases 0.
void initializeAlbertWeights(torch::nn::Module& module, double std);

} // namespace sahaj::model
