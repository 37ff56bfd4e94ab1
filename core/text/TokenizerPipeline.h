#pragma once

#include "core/text/AddedTokenVocabulary.h"
#include "core/text/Decoder.h"
#include "core/text/Encoding.h"
#include "core/text/Normalizer.h"
#include "core/text/PostProcessorTemplate.h"
#include "core/text/PreTokenizer.h"
#include "core/text/UnigramModel.h"

#include <QStringList>

#include <memory>

namespace sahaj::text {

// Everything a loaded tokenizer.json consists of, and the steps of Hugging Face's encode and decode
// over it: added tokens on the raw text, normalizer, added tokens on the normalized text,
// pre-tokenizer, Unigram model, post-processor. TokenizerLoader fills it; Tokenizer shares it
// read-only between copies and threads.
class TokenizerPipeline {
public:
    struct Parts {
        std::unique_ptr<const Normalizer> normalizer;     // null: text stays as it is
        std::unique_ptr<const PreTokenizer> preTokenizer; // null: one piece per text
        std::unique_ptr<const UnigramModel> model;
        AddedTokenVocabulary addedTokens;
        std::unique_ptr<const PostProcessorTemplate> postProcessor; // null: no special tokens
        std::unique_ptr<const Decoder> decoder;                     // null: tokens joined by spaces
    };

    explicit TokenizerPipeline(Parts parts);

    // Appends the ids (and token strings when `tokens` is not null) of one text, without the
    // post-processor's special tokens.
    void encodeSequence(QStringView text, std::vector<int>& ids, std::vector<QString>* tokens) const;
    // Lays out one or two encoded sequences with the post-processor.
    void postProcess(const Encoding& a, const Encoding* b, bool addSpecialTokens, bool withTokens,
                     Encoding& out) const;
    QString decode(const std::vector<int>& ids, bool skipSpecialTokens) const;
    QString normalize(const QString& text) const;
    QStringList preTokenize(const QString& normalized) const;

    int tokenToId(const QString& token) const;
    QString idToToken(int id) const;
    int vocabSize() const { return vocabSize_; }
    int unkId() const { return parts_.model->unkId(); }
    std::vector<int> specialIds() const;

private:
    Parts parts_;
    int vocabSize_ = 0;
};

} // namespace sahaj::text
