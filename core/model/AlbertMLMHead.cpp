#include "core/model/AlbertMLMHead.h"

#include <torch/torch.h>

namespace sahaj::model {

AlbertMLMHeadImpl::AlbertMLMHeadImpl(const AlbertConfig& config, const at::Tensor& wordEmbeddingWeight)
    : decoderWeight_(wordEmbeddingWeight), activation_(config.hiddenAct) {
    // Hugging Face's order: the module's own bias first in its state dict, then LayerNorm, dense.
    bias = register_parameter("bias", torch::zeros({config.vocabSize}));
    layerNorm = register_module(
        "LayerNorm",
        torch::nn::LayerNorm(torch::nn::LayerNormOptions({config.embeddingSize}).eps(config.layerNormEps)));
    dense = register_module("dense", torch::nn::Linear(config.hiddenSize, config.embeddingSize));
}

at::Tensor AlbertMLMHeadImpl::forward(const at::Tensor& hidden) {
    // decoderWeight_ shares its TensorImpl with the embedding parameter, so Module::to() (which swaps the
    // data in place) and optimiser updates reach both.
    return at::linear(layerNorm(activation_(dense(hidden))), decoderWeight_, bias);
}

} // namespace sahaj::model
