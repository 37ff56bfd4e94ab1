#pragma once

#include "core/model/AlbertConfig.h"
#include "core/model/AlbertModel.h"
#include "core/model/SafeTensors.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <string>

namespace sahaj::model {

enum class ClassificationHead {
    Token,    // AlbertForTokenClassification: a label per token (NER); no pooler
    Sequence, // AlbertForSequenceClassification: a label per input, from the pooled [CLS] vector
};

// ALBERT with a classification head, laid out like Hugging Face's AlbertForTokenClassification and
// AlbertForSequenceClassification so that a fine-tuned model loads in `transformers`:
//   albert.embeddings.*, albert.encoder.*, [albert.pooler.* for Sequence], classifier.{weight,bias}
// The head is dropout (classifier_dropout_prob) and a linear map from the hidden size to numLabels.
class AlbertForClassificationImpl : public torch::nn::Module {
public:
    // Initialised as Hugging Face does (see initializeAlbertWeights); call torch::manual_seed first for a
    // reproducible head. Throws std::invalid_argument for an invalid config or numLabels < 1.
    AlbertForClassificationImpl(const AlbertConfig& config, ClassificationHead head, std::int64_t numLabels);

    // Token: [B,L,numLabels] logits; Sequence: [B,numLabels]. Inputs as AlbertModel::forward.
    at::Tensor forward(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                       const at::Tensor& tokenTypeIds);

    // Copies the body (albert.*) from the tensors of a pre-trained model, e.g. an AlbertForPreTraining
    // checkpoint; its heads and, for Token, its pooler are left out. The classifier keeps its
    // initialisation. Throws std::runtime_error (naming `source`) when a body tensor is missing or
    // mis-shaped; nothing is modified then.
    void loadPretrainedBody(const SafeTensors::Tensors& tensors, const std::string& source);

    const AlbertConfig& config() const { return config_; }
    ClassificationHead head() const { return head_; }
    std::int64_t numLabels() const { return numLabels_; }
    // "AlbertForTokenClassification" or "AlbertForSequenceClassification".
    static const char* architecture(ClassificationHead head);

    AlbertModel albert{nullptr};
    torch::nn::Linear classifier{nullptr};

private:
    AlbertConfig config_;
    ClassificationHead head_;
    std::int64_t numLabels_;
};
TORCH_MODULE(AlbertForClassification);

} // namespace sahaj::model
