#pragma once

#include <QStringList>

#include <cstdint>
#include <vector>

namespace sahaj::eval {

// One fine-tuning input, tokenised: `[CLS] ... [SEP]` and what is scored.
struct FinetuneFeatures {
    std::vector<std::int64_t> inputIds;
    // Token task: a label per token, the word's tag id at its first sub-token and -100 elsewhere
    // (special tokens, continuation pieces). Sequence task: one entry, the class id.
    std::vector<std::int64_t> labels;
    // Token task: for each word, the position of its first sub-token, or -1 when the word has no token
    // (it normalises to nothing) or was cut off by the length limit; such words are predicted "O".
    std::vector<int> wordTokens;
    // Token task: every word's gold tag. Scoring uses all words, also those cut off, so truncation costs
    // recall instead of silently shrinking the test set.
    QStringList goldTags;
};

} // namespace sahaj::eval
