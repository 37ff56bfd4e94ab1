#pragma once

#include "core/text/AddedToken.h"
#include "core/text/TokenizerTrie.h"

#include <QHash>
#include <QSet>
#include <QStringView>

#include <vector>

namespace sahaj::text {

// The added tokens of a tokenizer and how they cut a text, as tokenizers' AddedVocabulary does: the
// raw input is first split on the tokens that are not normalized; each remaining part is normalized
// and split again on the normalized tokens. Matching is leftmost-longest; single_word, lstrip and
// rstrip then decide whether a match counts and how much whitespace it takes with it.
class AddedTokenVocabulary {
public:
    // One part of a text: a span and the index of the added token it is (-1 for ordinary text).
    struct Split {
        qsizetype start = 0;
        qsizetype length = 0;
        int token = -1;
    };

    AddedTokenVocabulary() = default;
    explicit AddedTokenVocabulary(std::vector<AddedToken> tokens);

    const std::vector<AddedToken>& tokens() const { return tokens_; }
    const AddedToken* findById(int id) const {
        const int index = indexById_.value(id, -1);
        return index < 0 ? nullptr : &tokens_[std::size_t(index)];
    }
    // The id of the token with this content, -1 when there is none.
    int idOf(const QString& content) const { return byContent_.value(content, -1); }
    // Whether decode(skipSpecialTokens) drops a token spelled this way. tokenizers asks by spelling, so
    // a normalized special token (decoded as its normalized form) is not skipped.
    bool isSpecialSpelling(const QString& spelling) const { return specialContents_.contains(spelling); }

    // Splits `text` on the non-normalized tokens (normalized == false) or the normalized ones. The
    // splits cover the text; none is empty.
    void split(QStringView text, bool normalizedTokens, std::vector<Split>& out) const;

private:
    std::vector<AddedToken> tokens_;
    QHash<QString, int> byContent_;
    QHash<int, int> indexById_;
    QSet<QString> specialContents_;
    TokenizerTrie rawTrie_;        // values: indexes into tokens_
    TokenizerTrie normalizedTrie_; // values: indexes into tokens_
};

} // namespace sahaj::text
