#pragma once

#include "core/model/AlbertAttention.h"
#include "core/model/AlbertConfig.h"
#include "core/model/HiddenActivation.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// One transformer layer: attention, then the feed-forward block with its residual connection and
// LayerNorm. ALBERT applies the same instance many times (weight sharing).
// Parameters: full_layer_layer_norm.weight/bias [H], attention.*, ffn.weight [I,H], ffn.bias [I],
// ffn_output.weight [H,I], ffn_output.bias [H].
class AlbertLayerImpl : public torch::nn::Module {
public:
    explicit AlbertLayerImpl(const AlbertConfig& config);

    // hidden: [B,L,H], additiveMask: [B,1,1,L]. Returns [B,L,H].
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& additiveMask);

    torch::nn::LayerNorm fullLayerLayerNorm{nullptr};
    AlbertAttention attention{nullptr};
    torch::nn::Linear ffn{nullptr};
    torch::nn::Linear ffnOutput{nullptr};

private:
    HiddenActivation activation_;
};
TORCH_MODULE(AlbertLayer);

} // namespace sahaj::model
