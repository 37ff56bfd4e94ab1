#include "core/model/AlbertForClassification.h"

#include "core/model/AlbertInitialization.h"
#include "core/model/NamedTensorLoader.h"

#include <torch/torch.h>

#include <stdexcept>

namespace sahaj::model {

namespace {

// The largest label set accepted: far above any tagging scheme, small enough to catch a corrupt config.
constexpr std::int64_t kMaxLabels = 1 << 16;

const std::string kBodyPrefix = "albert.";

} // namespace

AlbertForClassificationImpl::AlbertForClassificationImpl(const AlbertConfig& config, ClassificationHead head,
                                                         std::int64_t numLabels)
    : config_(config), head_(head), numLabels_(numLabels) {
    config_.validate();
    if (numLabels < 1 || numLabels > kMaxLabels)
        throw std::invalid_argument("the number of labels must be in [1, " + std::to_string(kMaxLabels) +
                                    "], got " + std::to_string(numLabels));
    albert =
        register_module("albert", AlbertModel(config_, /*withPooler=*/head == ClassificationHead::Sequence));
    classifier = register_module("classifier", torch::nn::Linear(config_.hiddenSize, numLabels));
    initializeAlbertWeights(*this, config_.initializerRange);
}

at::Tensor AlbertForClassificationImpl::forward(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                                                const at::Tensor& tokenTypeIds) {
    const at::Tensor sequence = albert(inputIds, attentionMask, tokenTypeIds);
    const at::Tensor features = head_ == ClassificationHead::Token ? sequence : albert->pool(sequence);
    const double dropout = config_.classifierDropoutProb;
    return classifier(dropout > 0.0 ? torch::dropout(features, dropout, is_training()) : features);
}

void AlbertForClassificationImpl::loadPretrainedBody(const SafeTensors::Tensors& tensors,
                                                     const std::string& source) {
    torch::OrderedDict<std::string, at::Tensor> body;
    for (const auto& item : named_parameters())
        if (item.key().rfind(kBodyPrefix, 0) == 0)
            body.insert(item.key(), item.value());
    // Only the body's own tensors are taken from the file: heads, and a pooler this model lacks, stay.
    SafeTensors::Tensors wanted;
    for (const auto& [name, tensor] : tensors)
        if (body.contains(name))
            wanted.emplace(name, tensor);
    NamedTensorLoader::load(body, wanted, {}, source);
}

const char* AlbertForClassificationImpl::architecture(ClassificationHead head) {
    return head == ClassificationHead::Token ? "AlbertForTokenClassification"
                                             : "AlbertForSequenceClassification";
}

} // namespace sahaj::model
