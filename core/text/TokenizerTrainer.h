#pragma once

#include "core/text/CorpusReader.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace sahaj::text {

struct TokenizerTrainerOptions {
    int vocabSize = 32000;             // including the five special tokens
    std::uint64_t seed = 0;            // sampling of --max-lines and sentencepiece's own randomness
    qint64 maxDocuments = 0;           // 0: every document; otherwise a seeded uniform sample of this many
    double characterCoverage = 0.9995; // share of characters that get a piece; the rest become <unk>
    int threads = 0;                   // 0: one per core (the result depends on the thread count)
    CorpusReaderOptions corpus;
};

struct TokenizerTrainingSummary {
    qint64 documents = 0;         // documents used
    qint64 preTokens = 0;         // pre-tokens seen
    qint64 distinctPreTokens = 0; // distinct pre-tokens given to the trainer
    int vocabSize = 0;
};

// Trains a sahajBERT-style Unigram tokenizer: the text goes through the sahajBERT normaliser and
// pre-tokenizer (the Tokenizer built from TokenizerJsonWriter::pipelineOnly()), the distinct
// pre-tokens with their counts go to sentencepiece's Unigram trainer (which only picks and scores
// pieces: its own normalisation, whitespace handling and splitting are switched off, see docs/data.md),
// and the pieces are written as a Hugging Face tokenizer.json by TokenizerJsonWriter.
// sentencepiece's trainer keeps global state: train one tokenizer at a time per process.
class TokenizerTrainer {
public:
    explicit TokenizerTrainer(TokenizerTrainerOptions options = {});

    // Returns the tokenizer.json text. Throws std::runtime_error with a clear message for unreadable
    // corpora, corpora without text, and vocabulary sizes the corpus cannot fill or the alphabet
    // does not fit in; std::invalid_argument for bad options.
    QByteArray train(const QString& corpusPath);

    const TokenizerTrainingSummary& summary() const { return summary_; }

private:
    TokenizerTrainerOptions options_;
    TokenizerTrainingSummary summary_;
};

} // namespace sahaj::text
