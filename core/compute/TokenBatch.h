#pragma once

#include <cstdint>
#include <vector>

namespace sahaj::compute {

// A padded batch of MLM + SOP examples, what the data pipeline hands the model: row-major arrays of
// rows x width int64 values, in plain C++ so that the engine's data pipeline needs no libtorch
// (model::BatchTensors turns it into tensors on the compute side).
struct TokenBatch {
    static constexpr std::int64_t kIgnoreLabel = -100;

    std::int64_t rows = 0;
    std::int64_t width = 0;
    std::vector<std::int64_t> inputIds;      // the pad id in padding
    std::vector<std::int64_t> attentionMask; // 1 for tokens, 0 for padding
    std::vector<std::int64_t> tokenTypeIds;  // 0 for [CLS] A [SEP], 1 for B [SEP], 0 for padding
    std::vector<std::int64_t> mlmLabels;     // the original id at selected positions, kIgnoreLabel elsewhere
    std::vector<std::int64_t> sopLabels;     // one per row: 0 = in order, 1 = swapped

    // rows x width arrays filled with `pad`, 0, 0 and kIgnoreLabel, and rows SOP labels of 0.
    static TokenBatch padded(std::int64_t rows, std::int64_t width, std::int64_t pad);

    std::int64_t index(std::int64_t row, std::int64_t column) const { return row * width + column; }
    // Tokens that are not padding, and positions with an MLM label.
    std::int64_t tokens() const;
    std::int64_t maskedTokens() const;
    // Rows [begin, end), narrowed to the longest of them (a micro-batch needs only its own longest).
    // Throws std::out_of_range for rows outside the batch or an empty range.
    TokenBatch slice(std::int64_t begin, std::int64_t end) const;

    friend bool operator==(const TokenBatch&, const TokenBatch&) = default;
};

} // namespace sahaj::compute
