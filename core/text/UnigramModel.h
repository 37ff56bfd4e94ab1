#pragma once

#include "core/text/TokenizerTrie.h"

#include <QHash>
#include <QString>
#include <QStringView>

#include <vector>

namespace sahaj::text {

// The Unigram language model of SentencePiece as Hugging Face tokenizers runs it: each pre-tokenized
// piece is segmented into the vocabulary pieces with the highest total log-probability (Viterbi).
// A character that no vocabulary piece starts with costs the unknown score (lowest score minus 10),
// consecutive unknown characters fuse into one unknown token, and there is no byte fallback.
class UnigramModel {
public:
    // vocab[i] is the piece with id i and its score. unkId is -1 when the model has none; then text with
    // a character outside the vocabulary cannot be tokenized. Throws TokenizerError for an unkId
    // outside the vocabulary or an empty vocabulary.
    UnigramModel(std::vector<QString> pieces, std::vector<double> scores, int unkId);

    int size() const { return int(pieces_.size()); }
    int unkId() const { return unkId_; }
    // -1 when absent. A piece listed twice maps to its later id, as in tokenizers.
    int tokenToId(const QString& token) const { return ids_.value(token, -1); }
    // Empty for an id outside the vocabulary.
    QString idToToken(int id) const { return id >= 0 && id < size() ? pieces_[std::size_t(id)] : QString(); }

    // Appends the ids of the best segmentation of `piece` (and, when tokens is not null, the text of
    // each token). Throws TokenizerError when an unknown character meets a model without unkId.
    void tokenize(QStringView piece, std::vector<int>& ids, std::vector<QString>* tokens) const;

private:
    std::vector<QString> pieces_;
    std::vector<double> scores_;
    QHash<QString, int> ids_;
    TokenizerTrie trie_;
    int unkId_;
    double unkScore_;
};

} // namespace sahaj::text
