#pragma once

#include <cstdint>
#include <vector>

namespace sahaj::eval {

// One masked-LM + sentence-order example as evaluation files store it: the fields Hugging Face's
// AlbertForPreTraining takes, one sequence per JSONL line. A record may carry padding (attention 0).
struct MaskedLmRecord {
    std::vector<std::int64_t> inputIds;
    std::vector<std::int64_t> tokenTypeIds;
    std::vector<std::int64_t> attentionMask; // 1 for tokens, 0 for padding
    std::vector<std::int64_t> labels;        // original id at scored positions, -100 elsewhere
    std::int64_t sentenceOrderLabel = 0;     // 0 = in order, 1 = swapped
    std::int64_t line = 0;                   // 1-based line in its file (0 when built in memory)
};

} // namespace sahaj::eval
