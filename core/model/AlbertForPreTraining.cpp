#include "core/model/AlbertForPreTraining.h"

#include "core/model/AlbertInitialization.h"

#include <torch/torch.h>

#include <stdexcept>

namespace sahaj::model {

namespace {

constexpr std::int64_t kIgnoredLabel = -100;

} // namespace

AlbertForPreTrainingImpl::AlbertForPreTrainingImpl(const AlbertConfig& config) : config_(config) {
    config_.validate();
    albert = register_module("albert", AlbertModel(config_));
    predictions =
        register_module("predictions", AlbertMLMHead(config_, albert->embeddings->wordEmbeddings->weight));
    sopClassifier = register_module("sop_classifier", AlbertSOPHead(config_));
    resetParameters();
}

PreTrainingOutput AlbertForPreTrainingImpl::forward(const at::Tensor& inputIds,
                                                    const at::Tensor& attentionMask,
                                                    const at::Tensor& tokenTypeIds) {
    const at::Tensor sequence = albert(inputIds, attentionMask, tokenTypeIds);
    return {predictions(sequence), sopClassifier(albert->pool(sequence))};
}

MaskedPreTrainingOutput AlbertForPreTrainingImpl::forwardMasked(const at::Tensor& inputIds,
                                                                const at::Tensor& attentionMask,
                                                                const at::Tensor& tokenTypeIds,
                                                                const at::Tensor& mlmLabels) {
    if (!mlmLabels.defined() || !mlmLabels.sizes().equals(inputIds.sizes()))
        throw std::invalid_argument("MLM labels must have the input ids' shape [batch, length]");
    if (mlmLabels.scalar_type() != at::kLong)
        throw std::invalid_argument(std::string("MLM labels must be int64, got ") +
                                    c10::toString(mlmLabels.scalar_type()));
    const at::Tensor sequence = albert(inputIds, attentionMask, tokenTypeIds);
    const at::Tensor flatLabels = mlmLabels.reshape({-1});
    // nonzero gives the labelled positions in row-major order; index_select gathers only those rows.
    const at::Tensor positions = flatLabels.ne(kIgnoredLabel).nonzero().squeeze(1);
    const at::Tensor selected = sequence.reshape({-1, sequence.size(2)}).index_select(0, positions);
    return {predictions(selected), flatLabels.index_select(0, positions),
            sopClassifier(albert->pool(sequence))};
}

void AlbertForPreTrainingImpl::resetParameters() {
    initializeAlbertWeights(*this, config_.initializerRange);
    torch::NoGradGuard noGrad;
    predictions->bias.zero_();
}

std::int64_t AlbertForPreTrainingImpl::parameterCount() const {
    // named_parameters() holds each tensor once (the decoder aliases are not registered), but count by
    // storage anyway so that a future second registration cannot inflate the figure.
    std::vector<const c10::TensorImpl*> seen;
    std::int64_t count = 0;
    for (const auto& parameter : parameters()) {
        const c10::TensorImpl* impl = parameter.unsafeGetTensorImpl();
        if (std::find(seen.begin(), seen.end(), impl) != seen.end())
            continue;
        seen.push_back(impl);
        count += parameter.numel();
    }
    return count;
}

torch::OrderedDict<std::string, at::Tensor> AlbertForPreTrainingImpl::stateDict() const {
    torch::OrderedDict<std::string, at::Tensor> state;
    for (const auto& item : named_parameters()) {
        state.insert(item.key(), item.value());
        // Hugging Face lists the decoder right after the head's dense layer.
        if (item.key() == "predictions.dense.bias") {
            state.insert("predictions.decoder.weight", predictions->decoderWeight());
            state.insert("predictions.decoder.bias", predictions->decoderBias());
        }
    }
    return state;
}

const std::vector<std::pair<std::string, std::string>>& AlbertForPreTrainingImpl::tiedAliases() {
    static const std::vector<std::pair<std::string, std::string>> aliases{
        {"predictions.decoder.weight", "albert.embeddings.word_embeddings.weight"},
        {"predictions.decoder.bias", "predictions.bias"},
    };
    return aliases;
}

} // namespace sahaj::model
