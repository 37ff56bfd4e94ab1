#include "core/eval/FinetuneEncoder.h"

#include "core/text/PretrainingExample.h"
#include "core/text/Tokenizer.h"

#include <stdexcept>

namespace sahaj::eval {

FinetuneEncoder::FinetuneEncoder(const text::Tokenizer& tokenizer, const LabelSet& labels,
                                 std::int64_t maxLength)
    : tokenizer_(tokenizer), labels_(labels), maxLength_(maxLength), clsId_(tokenizer.clsId()),
      sepId_(tokenizer.sepId()) {
    if (clsId_ < 0 || sepId_ < 0)
        throw std::invalid_argument("the tokenizer has no [CLS] or no [SEP] token");
    if (maxLength_ < 3)
        throw std::invalid_argument("the maximum length must be at least 3 tokens");
}

std::int64_t FinetuneEncoder::labelId(const QString& label) const {
    const int id = labels_.id(label);
    if (id < 0)
        throw std::invalid_argument("label '" + label.toStdString() + "' is not in the label set");
    return id;
}

FinetuneFeatures FinetuneEncoder::encode(const TaggedSentence& sentence) const {
    FinetuneFeatures features;
    features.goldTags = sentence.tags;
    features.inputIds.push_back(clsId_);
    features.labels.push_back(text::kIgnoreLabel);
    const std::int64_t room = maxLength_ - 1; // the final [SEP]
    for (qsizetype w = 0; w < sentence.words.size(); ++w) {
        const std::vector<int> pieces = tokenizer_.encodeIds(sentence.words[w]);
        const std::int64_t tag = labelId(sentence.tags[w]);
        if (pieces.empty() || static_cast<std::int64_t>(features.inputIds.size()) >= room) {
            features.wordTokens.push_back(-1);
            continue;
        }
        features.wordTokens.push_back(static_cast<int>(features.inputIds.size()));
        for (std::size_t p = 0;
             p < pieces.size() && static_cast<std::int64_t>(features.inputIds.size()) < room; ++p) {
            features.inputIds.push_back(pieces[p]);
            features.labels.push_back(p == 0 ? tag : text::kIgnoreLabel);
        }
    }
    features.inputIds.push_back(sepId_);
    features.labels.push_back(text::kIgnoreLabel);
    return features;
}

FinetuneFeatures FinetuneEncoder::encode(const LabelledText& example) const {
    FinetuneFeatures features;
    std::vector<int> pieces = tokenizer_.encodeIds(example.text);
    if (static_cast<std::int64_t>(pieces.size()) > maxLength_ - 2)
        pieces.resize(static_cast<std::size_t>(maxLength_ - 2));
    features.inputIds.reserve(pieces.size() + 2);
    features.inputIds.push_back(clsId_);
    features.inputIds.insert(features.inputIds.end(), pieces.begin(), pieces.end());
    features.inputIds.push_back(sepId_);
    features.labels.push_back(labelId(example.label));
    return features;
}

} // namespace sahaj::eval
