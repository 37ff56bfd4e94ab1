#pragma once

#include "core/eval/FinetuneFeatures.h"
#include "core/eval/LabelSet.h"
#include "core/eval/LabelledText.h"
#include "core/eval/TaggedSentence.h"

#include <cstdint>
#include <vector>

namespace sahaj::text {
class Tokenizer;
}

namespace sahaj::eval {

// Tokenises task data for a classifier. Words of a tagged sentence are tokenised one by one, as Hugging
// Face does with is_split_into_words=True (each word gets the Metaspace word-start mark), and the word's
// tag goes to its first sub-token only; texts are tokenised whole. Both get `[CLS] ... [SEP]` and are
// cut to maxLength tokens, keeping the final [SEP].
class FinetuneEncoder {
public:
    // Throws std::invalid_argument when the tokenizer lacks [CLS] or [SEP] or maxLength < 3.
    FinetuneEncoder(const text::Tokenizer& tokenizer, const LabelSet& labels, std::int64_t maxLength);

    // Labels must be in the label set (LabelSet::checkCovers first); throws std::invalid_argument if not.
    FinetuneFeatures encode(const TaggedSentence& sentence) const;
    FinetuneFeatures encode(const LabelledText& example) const;

    template <typename Example>
    std::vector<FinetuneFeatures> encodeAll(const std::vector<Example>& examples) const {
        std::vector<FinetuneFeatures> features;
        features.reserve(examples.size());
        for (const Example& example : examples)
            features.push_back(encode(example));
        return features;
    }

private:
    std::int64_t labelId(const QString& label) const;

    const text::Tokenizer& tokenizer_;
    const LabelSet& labels_;
    std::int64_t maxLength_;
    std::int64_t clsId_;
    std::int64_t sepId_;
};

} // namespace sahaj::eval
