#pragma once

#include "core/model/AlbertConfig.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// ALBERT's factorised input embeddings: word, position and token-type vectors of the small embedding size
// (128 for sahajBERT, against a hidden size of 1024), summed and normalised. The projection to the hidden
// size lives in AlbertTransformer, where Hugging Face has it.
// Parameters: word_embeddings.weight [V,E], position_embeddings.weight [P,E],
// token_type_embeddings.weight [T,E], LayerNorm.weight/bias [E].
class AlbertEmbeddingsImpl : public torch::nn::Module {
public:
    explicit AlbertEmbeddingsImpl(const AlbertConfig& config);

    // inputIds, tokenTypeIds: [B,L] integer ids, already range-checked by the caller. Returns [B,L,E].
    at::Tensor forward(const at::Tensor& inputIds, const at::Tensor& tokenTypeIds);

    torch::nn::Embedding wordEmbeddings{nullptr};
    torch::nn::Embedding positionEmbeddings{nullptr};
    torch::nn::Embedding tokenTypeEmbeddings{nullptr};
    torch::nn::LayerNorm layerNorm{nullptr};

private:
    double dropout_;
};
TORCH_MODULE(AlbertEmbeddings);

} // namespace sahaj::model
