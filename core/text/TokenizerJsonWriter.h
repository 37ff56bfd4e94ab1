#pragma once

#include <QByteArray>

#include <string>
#include <utility>
#include <vector>

namespace sahaj::text {

// Writes a Hugging Face tokenizer.json with the sahajBERT pipeline - Nmt/NFKC/Replace/Lowercase
// normaliser, Metaspace + Digits + Punctuation pre-tokenizer, `[CLS] A [SEP] B [SEP]` template and
// Metaspace decoder, copied from the sahajBERT tokenizer - around a Unigram vocabulary. The special
// tokens are fixed: <pad>=0, <unk>=1, [CLS]=2, [SEP]=3, [MASK]=4, with the sahajBERT added-token flags.
class TokenizerJsonWriter {
public:
    using Piece = std::pair<std::string, double>; // UTF-8 piece, Unigram log-probability

    // The five special tokens in id order, each with score 0 (as in the sahajBERT file).
    static std::vector<Piece> specialPieces();

    // The complete tokenizer.json. `pieces` is the whole vocabulary in id order and must begin with
    // specialPieces() (checked: the template's ids depend on it). Pieces must be unique and non-empty.
    static QByteArray write(const std::vector<Piece>& pieces);

    // A tokenizer.json whose vocabulary is only the special tokens and "▁": enough to run the
    // normaliser and pre-tokenizer when preparing text for training.
    static QByteArray pipelineOnly();
};

} // namespace sahaj::text
