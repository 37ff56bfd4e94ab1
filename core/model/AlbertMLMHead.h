#pragma once

#include "core/model/AlbertConfig.h"
#include "core/model/HiddenActivation.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// The masked-language-model head ("predictions."): dense H->E, activation, LayerNorm, then the decoder
// E->V whose weight IS the word-embedding matrix and whose bias IS predictions.bias (tied, as in Hugging
// Face). Registered parameters: bias [V], LayerNorm.weight/bias [E], dense.weight [E,H], dense.bias [E].
//
// The decoder's tensors are deliberately not registered a second time as "decoder.weight"/"decoder.bias":
// libtorch's named_parameters() does not drop duplicates the way PyTorch's does, so an optimiser, a
// gradient clipper or a gradient flattener walking parameters() would see the tied tensors twice (two
// updates per step, a wrong norm). AlbertForPreTraining::stateDict() adds those names back for files.
class AlbertMLMHeadImpl : public torch::nn::Module {
public:
    // wordEmbeddingWeight: the [V,E] word-embedding parameter to tie the decoder to.
    AlbertMLMHeadImpl(const AlbertConfig& config, const at::Tensor& wordEmbeddingWeight);

    // hidden: [..., H] -> logits [..., V].
    at::Tensor forward(const at::Tensor& hidden);

    const at::Tensor& decoderWeight() const { return decoderWeight_; }
    const at::Tensor& decoderBias() const { return bias; }

    at::Tensor bias;
    torch::nn::LayerNorm layerNorm{nullptr};
    torch::nn::Linear dense{nullptr};

private:
    at::Tensor decoderWeight_;
    HiddenActivation activation_;
};
TORCH_MODULE(AlbertMLMHead);

} // namespace sahaj::model
