#include "core/model/AlbertModel.h"

#include <torch/torch.h>

#include <sstream>
#include <stdexcept>

namespace sahaj::model {

namespace {

// Added to the attention scores of padding keys. Finite, unlike -inf or the dtype's lowest value: a row
// whose keys are all padding then stays finite instead of turning into NaN, and the value survives the
// cast to fp16/bf16 under autocast. exp(-10000) is exactly 0 in every float type, so padding gets no weight.
constexpr double kMaskedScore = -10000.0;

std::string shapeOf(const at::Tensor& t) {
    std::ostringstream s;
    s << t.sizes();
    return s.str();
}

void checkIdRange(const at::Tensor& ids, std::int64_t limit, const char* what, const char* limitName) {
    const auto [low, high] = at::aminmax(ids);
    const auto lowest = low.item<std::int64_t>();
    const auto highest = high.item<std::int64_t>();
    if (lowest < 0 || highest >= limit)
        throw std::invalid_argument(std::string(what) + " must lie in [0, " + std::to_string(limit) + ") (" +
                                    limitName + "), got values in [" + std::to_string(lowest) + ", " +
                                    std::to_string(highest) + "]");
}

} // namespace

AlbertModelImpl::AlbertModelImpl(const AlbertConfig& config, bool withPooler) : config_(config) {
    config_.validate();
    embeddings = register_module("embeddings", AlbertEmbeddings(config_));
    encoder = register_module("encoder", AlbertTransformer(config_));
    if (withPooler)
        pooler = register_module("pooler", torch::nn::Linear(config_.hiddenSize, config_.hiddenSize));
}

void AlbertModelImpl::checkInputs(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                                  const at::Tensor& tokenTypeIds) const {
    if (!inputIds.defined() || !attentionMask.defined() || !tokenTypeIds.defined())
        throw std::invalid_argument("input ids, attention mask and token type ids must all be given");
    if (inputIds.dim() != 2 || inputIds.size(0) < 1 || inputIds.size(1) < 1)
        throw std::invalid_argument("input ids must have shape [batch, length] with both at least 1, got " +
                                    shapeOf(inputIds));
    if (!attentionMask.sizes().equals(inputIds.sizes()) || !tokenTypeIds.sizes().equals(inputIds.sizes()))
        throw std::invalid_argument("attention mask " + shapeOf(attentionMask) + " and token type ids " +
                                    shapeOf(tokenTypeIds) + " must have the input ids' shape " +
                                    shapeOf(inputIds));
    for (const auto* ids : {&inputIds, &tokenTypeIds})
        if (ids->scalar_type() != at::kLong && ids->scalar_type() != at::kInt)
            throw std::invalid_argument(
                std::string("input ids and token type ids must be int64 or int32, got ") +
                c10::toString(ids->scalar_type()));
    if (inputIds.size(1) > config_.maxPositionEmbeddings)
        throw std::invalid_argument("sequence length " + std::to_string(inputIds.size(1)) +
                                    " exceeds max_position_embeddings " +
                                    std::to_string(config_.maxPositionEmbeddings));
    // An out-of-range id would abort a CUDA context (device-side assert) or give an opaque index error.
    checkIdRange(inputIds, config_.vocabSize, "input ids", "vocab_size");
    checkIdRange(tokenTypeIds, config_.typeVocabSize, "token type ids", "type_vocab_size");
}

at::Tensor AlbertModelImpl::forward(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                                    const at::Tensor& tokenTypeIds) {
    checkInputs(inputIds, attentionMask, tokenTypeIds);
    const at::Tensor embedded = embeddings(inputIds, tokenTypeIds);
    // [B,L] -> [B,1,1,L]: 0 for tokens, kMaskedScore for padding; built once, used by every layer.
    const at::Tensor keep = attentionMask.to(embedded.scalar_type());
    const at::Tensor additiveMask =
        ((1.0 - keep) * kMaskedScore).view({inputIds.size(0), 1, 1, inputIds.size(1)});
    return encoder(embedded, additiveMask);
}

at::Tensor AlbertModelImpl::pool(const at::Tensor& sequenceOutput) {
    if (!pooler)
        throw std::logic_error("this ALBERT body was built without a pooler");
    return torch::tanh(pooler(sequenceOutput.select(1, 0)));
}

} // namespace sahaj::model
