#include "core/model/AlbertEmbeddings.h"

#include <torch/torch.h>

namespace sahaj::model {

AlbertEmbeddingsImpl::AlbertEmbeddingsImpl(const AlbertConfig& config) : dropout_(config.hiddenDropoutProb) {
    auto wordOptions = torch::nn::EmbeddingOptions(config.vocabSize, config.embeddingSize);
    if (config.padTokenId)
        wordOptions.padding_idx(*config.padTokenId);
    wordEmbeddings = register_module("word_embeddings", torch::nn::Embedding(wordOptions));
    positionEmbeddings = register_module(
        "position_embeddings", torch::nn::Embedding(config.maxPositionEmbeddings, config.embeddingSize));
    tokenTypeEmbeddings = register_module("token_type_embeddings",
                                          torch::nn::Embedding(config.typeVocabSize, config.embeddingSize));
    layerNorm = register_module(
        "LayerNorm",
        torch::nn::LayerNorm(torch::nn::LayerNormOptions({config.embeddingSize}).eps(config.layerNormEps)));
}

at::Tensor AlbertEmbeddingsImpl::forward(const at::Tensor& inputIds, const at::Tensor& tokenTypeIds) {
    const auto length = inputIds.size(1);
    const at::Tensor positions =
        torch::arange(length, torch::TensorOptions().dtype(torch::kLong).device(inputIds.device()));
    // [B,L,E] + [B,L,E] + [L,E]: the position term broadcasts over the batch without being expanded.
    at::Tensor embeddings =
        wordEmbeddings(inputIds) + tokenTypeEmbeddings(tokenTypeIds) + positionEmbeddings(positions);
    embeddings = layerNorm(embeddings);
    if (dropout_ > 0.0)
        embeddings = torch::dropout(embeddings, dropout_, is_training());
    return embeddings;
}

} // namespace sahaj::model
