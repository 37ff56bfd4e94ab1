#include "core/model/AlbertLayer.h"

#include <torch/torch.h>

namespace sahaj::model {

AlbertLayerImpl::AlbertLayerImpl(const AlbertConfig& config) : activation_(config.hiddenAct) {
    // Registration order is Hugging Face's, so named_parameters() lists the names in its state-dict order.
    fullLayerLayerNorm = register_module(
        "full_layer_layer_norm",
        torch::nn::LayerNorm(torch::nn::LayerNormOptions({config.hiddenSize}).eps(config.layerNormEps)));
    attention = register_module("attention", AlbertAttention(config));
    ffn = register_module("ffn", torch::nn::Linear(config.hiddenSize, config.intermediateSize));
    ffnOutput = register_module("ffn_output", torch::nn::Linear(config.intermediateSize, config.hiddenSize));
}

at::Tensor AlbertLayerImpl::forward(const at::Tensor& hidden, const at::Tensor& additiveMask) {
    const at::Tensor attended = attention(hidden, additiveMask);
    // Hugging Face applies no dropout to the feed-forward output here (its AlbertLayer.dropout is unused).
    const at::Tensor fed = ffnOutput(activation_(ffn(attended)));
    return fullLayerLayerNorm(fed + attended);
}

} // namespace sahaj::model
