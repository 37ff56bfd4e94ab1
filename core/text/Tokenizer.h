#pragma once

#include "core/text/Encoding.h"
#include "core/text/TokenizerError.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <memory>
#include <vector>

namespace sahaj::text {

class TokenizerPipeline;

// A Hugging Face tokenizer.json with a Unigram model (the sahajBERT tokenizer), giving the same ids
// as Hugging Face tokenizers 0.23. Immutable once loaded; copies share the loaded data and every
// method may be called from several threads at once.
class Tokenizer {
public:
    // Throws TokenizerError naming the file and the problem (unreadable, not JSON, unsupported
    // component, broken vocabulary).
    static Tokenizer fromFile(const QString& path);
    // `origin` names the source in error messages (a path, or e.g. "built-in tokenizer").
    static Tokenizer fromJson(const QByteArray& json, const QString& origin);

    // Ids, type ids and token strings of one text; with special tokens as the post-processor lays
    // them out ([CLS] text [SEP] for sahajBERT).
    Encoding encode(const QString& text, bool addSpecialTokens = true) const;
    // Two texts as one input ([CLS] a [SEP] b [SEP], type ids 0 for a and 1 for b).
    Encoding encodePair(const QString& a, const QString& b, bool addSpecialTokens = true) const;
    // The ids of one text without special tokens; skips building token strings.
    std::vector<int> encodeIds(const QString& text) const;
    // Text from ids; ids outside the vocabulary are dropped. With skipSpecialTokens the special
    // added tokens are left out (as in tokenizers, a normalized special token such as [MASK] is not).
    QString decode(const std::vector<int>& ids, bool skipSpecialTokens = true) const;

    // The normalizer alone.
    QString normalize(const QString& text) const;
    // The pieces the pre-tokenizer cuts an already normalized text into.
    QStringList preTokenize(const QString& normalized) const;

    // -1 when absent.
    int tokenToId(const QString& token) const;
    // Empty when absent. An added token that is normalized reads as its normalized form ("[mask]").
    QString idToToken(int id) const;
    // One more than the largest id (the size an embedding table needs).
    int vocabSize() const;

    // Ids of the usual special tokens, found by their usual spellings; -1 when the tokenizer has none.
    int padId() const;  // <pad> or [PAD]
    int unkId() const;  // the model's unknown token
    int clsId() const;  // [CLS] or <s>
    int sepId() const;  // [SEP] or </s>
    int maskId() const; // [MASK] or <mask>
    // Ids of all added tokens marked special, ascending.
    std::vector<int> specialIds() const;

private:
    explicit Tokenizer(std::shared_ptr<const TokenizerPipeline> pipeline);
    int firstIdOf(std::initializer_list<const char*> spellings) const;

    std::shared_ptr<const TokenizerPipeline> pipeline_;
};

} // namespace sahaj::text
