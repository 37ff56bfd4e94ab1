#include "core/compute/TokenBatchMessage.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace sahaj::compute {

namespace {

template <typename Field>
void copyOut(const std::vector<std::int64_t>& values, Field* field) {
    field->Reserve(static_cast<int>(values.size()));
    for (const std::int64_t value : values)
        field->Add(static_cast<std::int32_t>(value));
}

template <typename Field>
std::vector<std::int64_t> copyIn(const Field& field, std::size_t expected, const char* name, std::int64_t low,
                                 std::int64_t high, std::optional<std::int64_t> alsoAllowed = std::nullopt) {
    if (static_cast<std::size_t>(field.size()) != expected)
        throw std::invalid_argument(std::string("a batch's ") + name + " has " +
                                    std::to_string(field.size()) + " values, " + std::to_string(expected) +
                                    " expected");
    std::vector<std::int64_t> values(field.begin(), field.end());
    for (const std::int64_t value : values)
        if ((value < low || value >= high) && value != alsoAllowed)
            throw std::invalid_argument(std::string("a batch's ") + name + " holds " + std::to_string(value) +
                                        ", outside [" + std::to_string(low) + ", " + std::to_string(high) +
                                        ")");
    return values;
}

} // namespace

void TokenBatchMessage::encode(const TokenBatch& batch, corechannel::TokenBatch& message) {
    message.set_rows(static_cast<std::uint32_t>(batch.rows));
    message.set_width(static_cast<std::uint32_t>(batch.width));
    copyOut(batch.inputIds, message.mutable_input_ids());
    copyOut(batch.attentionMask, message.mutable_attention_mask());
    copyOut(batch.tokenTypeIds, message.mutable_token_type_ids());
    copyOut(batch.mlmLabels, message.mutable_mlm_labels());
    copyOut(batch.sopLabels, message.mutable_sop_labels());
}

TokenBatch TokenBatchMessage::decode(const corechannel::TokenBatch& message, const Limits& limits) {
    if (message.rows() < 1 || message.rows() > limits.maxRows)
        throw std::invalid_argument("a batch of " + std::to_string(message.rows()) + " rows (1 to " +
                                    std::to_string(limits.maxRows) + ")");
    if (message.width() < 1 || message.width() > limits.maxWidth)
        throw std::invalid_argument("a batch " + std::to_string(message.width()) + " tokens wide (1 to " +
                                    std::to_string(limits.maxWidth) + ")");
    TokenBatch batch;
    batch.rows = message.rows();
    batch.width = message.width();
    const auto cells = static_cast<std::size_t>(batch.rows * batch.width);
    batch.inputIds = copyIn(message.input_ids(), cells, "input ids", 0, limits.vocabulary);
    batch.attentionMask = copyIn(message.attention_mask(), cells, "attention mask", 0, 2);
    batch.tokenTypeIds = copyIn(message.token_type_ids(), cells, "token types", 0, limits.typeVocabulary);
    batch.mlmLabels =
        copyIn(message.mlm_labels(), cells, "MLM labels", 0, limits.vocabulary, TokenBatch::kIgnoreLabel);
    batch.sopLabels = copyIn(message.sop_labels(), static_cast<std::size_t>(batch.rows), "SOP labels", 0, 2);
    return batch;
}

} // namespace sahaj::compute
