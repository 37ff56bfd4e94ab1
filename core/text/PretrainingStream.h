#pragma once

#include "core/text/BatchCollator.h"
#include "core/text/CorpusReader.h"
#include "core/text/MlmMasker.h"
#include "core/compute/TokenBatch.h"
#include "core/text/PretrainingExample.h"
#include "core/text/PretrainingExampleBuilder.h"
#include "core/text/ShuffleBuffer.h"
#include "core/text/StreamPosition.h"
#include "core/text/Tokenizer.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace sahaj::text {

struct PretrainingStreamOptions {
    double mlmProbability = 0.15;
    // Documents held for shuffling; each pass is reshuffled with a pass-dependent seed.
    std::size_t shuffleBufferSize = 10000;
    // ALBERT's short_seq_prob: share of chunks packed to a random shorter length.
    double shortSequenceProbability = 0.1;
    PaddingMode padding = PaddingMode::Longest;
    CorpusReaderOptions corpus;
};

// The endless MLM + SOP batch stream of one peer: reads the corpus lazily, shuffles documents through a
// seeded buffer, splits them into sentences, tokenises, builds `[CLS] A [SEP] B [SEP]` examples, masks
// and pads them; at the end of the corpus it starts the next pass with a new shuffle.
//
// Deterministic: the same corpus, tokenizer, settings and seed give the same batches. Every random
// decision draws from a generator seeded by (seed, pass, document[, example]), so the stream can be
// resumed exactly: from a saved position() (cheap) or by skipBatches(n) (replays tokenisation only).
class PretrainingStream {
public:
    PretrainingStream(const QString& corpusPath, const Tokenizer& tokenizer, int sequenceLength,
                      int batchSize, std::uint64_t seed, PretrainingStreamOptions options = {},
                      StreamPosition start = {});
    ~PretrainingStream();
    PretrainingStream(const PretrainingStream&) = delete;
    PretrainingStream& operator=(const PretrainingStream&) = delete;

    // The next batch.
    compute::TokenBatch next();
    // The next batch's examples, masked but not padded.
    std::vector<PretrainingExample> nextExamples();
    // Advances by `count` batches without masking or building tensors.
    void skipBatches(std::uint64_t count);
    // Where the next batch starts; pass it to the constructor to continue from here.
    StreamPosition position() const;

    int sequenceLength() const { return sequenceLength_; }
    int batchSize() const { return batchSize_; }
    // Later batches have `batchSize` examples (a volunteer changing its memory limit while it trains).
    // Throws std::invalid_argument below 1.
    void setBatchSize(int batchSize);
    std::uint64_t seed() const { return seed_; }
    // JSONL lines skipped so far under BadLinePolicy::Skip.
    qint64 skippedLines() const { return reader_->skippedLines(); }

private:
    void startPass(std::uint64_t pass);
    std::optional<QString> nextDocumentText();
    std::vector<PretrainingExample> buildExamples(const QString& text, std::uint64_t document) const;
    void loadNextDocument();
    PretrainingExample takeExample(bool mask);
    void restore(const StreamPosition& start);

    QString corpusPath_;
    Tokenizer tokenizer_;
    int sequenceLength_;
    int batchSize_;
    std::uint64_t seed_;
    PretrainingStreamOptions options_;
    PretrainingExampleBuilder builder_;
    MlmMasker masker_;
    BatchCollator collator_;

    std::unique_ptr<CorpusReader> reader_;
    std::unique_ptr<ShuffleBuffer<QString>> shuffle_;
    bool readerDone_ = false;
    std::uint64_t pass_ = 0;
    std::uint64_t documentsTaken_ = 0;   // documents drawn from the shuffle in this pass
    bool passStartedAtBeginning_ = true; // false after restoring mid-pass
    std::uint64_t examplesThisPass_ = 0;

    std::vector<PretrainingExample> current_; // examples of the current document
    std::uint64_t currentDocument_ = 0;
    std::size_t nextExample_ = 0;
    std::uint64_t batches_ = 0;
};

} // namespace sahaj::text
