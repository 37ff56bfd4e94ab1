#include "core/model/AlbertAttention.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <cmath>

#if TORCH_VERSION_MAJOR >= 2
#define SAHAJ_HAVE_FUSED_ATTENTION 1
#endif

namespace sahaj::model {

AlbertAttentionImpl::AlbertAttentionImpl(const AlbertConfig& config)
    : heads_(config.numAttentionHeads), headSize_(config.hiddenSize / config.numAttentionHeads),
      attentionDropout_(config.attentionProbsDropoutProb), hiddenDropout_(config.hiddenDropoutProb) {
    const auto H = config.hiddenSize;
    query = register_module("query", torch::nn::Linear(H, H));
    key = register_module("key", torch::nn::Linear(H, H));
    value = register_module("value", torch::nn::Linear(H, H));
    dense = register_module("dense", torch::nn::Linear(H, H));
    layerNorm = register_module(
        "LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({H}).eps(config.layerNormEps)));
}

at::Tensor AlbertAttentionImpl::forward(const at::Tensor& hidden, const at::Tensor& additiveMask) {
    const auto B = hidden.size(0), L = hidden.size(1), H = hidden.size(2);
    // [B,L,H] -> [B,heads,L,headSize] as views; only the kernels below decide what to copy.
    const auto split = [&](const at::Tensor& x) { return x.view({B, L, heads_, headSize_}).transpose(1, 2); };
    const at::Tensor context =
        attend(split(query(hidden)), split(key(hidden)), split(value(hidden)), additiveMask);
    at::Tensor projected = dense(context.transpose(1, 2).reshape({B, L, H}));
    if (hiddenDropout_ > 0.0)
        projected = torch::dropout(projected, hiddenDropout_, is_training());
    return layerNorm(hidden + projected);
}

at::Tensor AlbertAttentionImpl::attend(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                       const at::Tensor& mask) {
    const double dropout = is_training() ? attentionDropout_ : 0.0;
#ifdef SAHAJ_HAVE_FUSED_ATTENTION
    // One fused kernel (flash / memory-efficient / math, chosen by torch) with the scale 1/sqrt(headSize)
    // it applies by default; the mask must have the query's dtype under autocast.
    return at::scaled_dot_product_attention(q, k, v, mask.to(q.scalar_type()), dropout, /*is_causal=*/false);
#else
    // libtorch 1.x: softmax(mask + q k^T / sqrt(d)) v, with the scale and the mask folded into one baddbmm.
    const auto B = q.size(0), L = q.size(2);
    const at::Tensor q3 = q.reshape({B * heads_, L, headSize_});
    const at::Tensor k3 = k.reshape({B * heads_, L, headSize_});
    const at::Tensor v3 = v.reshape({B * heads_, L, headSize_});
    // [B,1,1,L] -> [B*heads,1,L]; baddbmm broadcasts it over the query positions.
    const at::Tensor mask3 = mask.to(q.scalar_type()).expand({B, heads_, 1, L}).reshape({B * heads_, 1, L});
    const double scale = 1.0 / std::sqrt(static_cast<double>(headSize_));
    at::Tensor probabilities = at::softmax(at::baddbmm(mask3, q3, k3.transpose(1, 2), 1.0, scale), -1);
    if (dropout > 0.0)
        probabilities = torch::dropout(probabilities, dropout, true);
    return at::bmm(probabilities, v3).view({B, heads_, L, headSize_});
#endif
}

} // namespace sahaj::model
