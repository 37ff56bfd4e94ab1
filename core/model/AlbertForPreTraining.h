#pragma once

#include "core/model/AlbertConfig.h"
#include "core/model/AlbertMLMHead.h"
#include "core/model/AlbertModel.h"
#include "core/model/AlbertSOPHead.h"
#include "core/model/PreTrainingOutput.h"

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/ordered_dict.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sahaj::model {

// ALBERT with its two pre-training heads, laid out exactly like Hugging Face's AlbertForPreTraining so
// that parameter names, shapes and saved files are interchangeable with `transformers`:
//   albert.embeddings.*, albert.encoder.embedding_hidden_mapping_in.*,
//   albert.encoder.albert_layer_groups.<g>.albert_layers.<k>.*, albert.pooler.*,
//   predictions.{bias, LayerNorm.*, dense.*}, sop_classifier.classifier.*
//
// Tied weights: the MLM decoder uses albert.embeddings.word_embeddings.weight and predictions.bias.
// named_parameters() lists every trainable tensor exactly once, like PyTorch's named_parameters() on the
// Hugging Face model: hand it to optimisers, gradient clipping and averaging as it is. stateDict() adds
// the aliases "predictions.decoder.weight" and "predictions.decoder.bias" that Hugging Face's state_dict()
// also lists. Keep the tie intact by updating parameters in place (copy_, optimiser steps, Module::to);
// never assign a new tensor to a parameter.
class AlbertForPreTrainingImpl : public torch::nn::Module {
public:
    // Builds the model and initialises it with resetParameters(): call torch::manual_seed first for a
    // reproducible model. Throws std::invalid_argument for an invalid config.
    explicit AlbertForPreTrainingImpl(const AlbertConfig& config);

    // inputIds, tokenTypeIds: [B,L] int64; attentionMask: [B,L], 1 for tokens, 0 for padding.
    PreTrainingOutput forward(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                              const at::Tensor& tokenTypeIds);
    // As forward(), but MLM logits only at positions whose mlmLabels entry is not -100 (see
    // MaskedPreTrainingOutput). mlmLabels: [B,L] int64.
    MaskedPreTrainingOutput forwardMasked(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                                          const at::Tensor& tokenTypeIds, const at::Tensor& mlmLabels);

    // Hugging Face's initialisation, drawn from torch's default generator: Linear and Embedding weights
    // ~ N(0, initializer_range), the padding row and all biases 0, LayerNorm weights 1.
    void resetParameters();

    const AlbertConfig& config() const { return config_; }

    // Elements of all distinct parameters (tied storage counted once).
    std::int64_t parameterCount() const;

    // Every tensor Hugging Face's state_dict() holds, in its order, including the tied aliases.
    torch::OrderedDict<std::string, at::Tensor> stateDict() const;
    // {alias, parameter it shares storage with}: the decoder's weight and bias.
    static const std::vector<std::pair<std::string, std::string>>& tiedAliases();

    AlbertModel albert{nullptr};
    AlbertMLMHead predictions{nullptr};
    AlbertSOPHead sopClassifier{nullptr};

private:
    AlbertConfig config_;
};
TORCH_MODULE(AlbertForPreTraining);

} // namespace sahaj::model
