#pragma once

#include "core/model/AlbertConfig.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// Multi-head self-attention with ALBERT's output projection, residual connection and LayerNorm (Hugging
// Face folds the BERT "self" and "output" parts into this one module).
// Parameters: query/key/value/dense .weight [H,H] .bias [H], LayerNorm.weight/bias [H].
class AlbertAttentionImpl : public torch::nn::Module {
public:
    explicit AlbertAttentionImpl(const AlbertConfig& config);

    // hidden: [B,L,H]; additiveMask: [B,1,1,L], 0 where a key may be attended to and a large negative
    // value where it is padding. Returns [B,L,H].
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& additiveMask);

    torch::nn::Linear query{nullptr};
    torch::nn::Linear key{nullptr};
    torch::nn::Linear value{nullptr};
    torch::nn::Linear dense{nullptr};
    torch::nn::LayerNorm layerNorm{nullptr};

private:
    at::Tensor attend(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const at::Tensor& mask);

    std::int64_t heads_;
    std::int64_t headSize_;
    double attentionDropout_;
    double hiddenDropout_;
};
TORCH_MODULE(AlbertAttention);

} // namespace sahaj::model
