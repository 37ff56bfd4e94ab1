#pragma once

#include "core/compute/TokenBatch.h"

#include <cstdint>
#include <vector>

namespace sahaj::text {

// One MLM + SOP training sequence before padding: `[CLS] A [SEP] B [SEP]`.
struct PretrainingExample {
    std::vector<std::int64_t> inputIds;     // after masking: with [MASK] / random / kept tokens
    std::vector<std::int64_t> tokenTypeIds; // 0 for [CLS] A [SEP], 1 for B [SEP]
    std::vector<std::int64_t> mlmLabels;    // original id where a token was selected, -100 elsewhere;
                                            // empty until MlmMasker has run
    std::int64_t sopLabel = 0;              // sentence order: 0 = A before B as written, 1 = swapped
};

// Hugging Face's ignore index for the cross-entropy of positions without a label.
inline constexpr std::int64_t kIgnoreLabel = compute::TokenBatch::kIgnoreLabel;

} // namespace sahaj::text
