#pragma once

#include "core/text/PretrainingStream.h"

#include <c10/core/Device.h>

#include <QString>

#include <cstdint>
#include <memory>

namespace sahaj::text {
class Tokenizer;
}

namespace sahaj::engine {

class ModelReplica;

struct AccumulatorOptions {
    QString corpusPath;
    QString tokenizerPath;
    text::PlainTextDocuments documents = text::PlainTextDocuments::LinePerDocument;
    int sequenceLength = 128;
    int microBatchSize = 8; // samples per forward/backward: the memory limit
    double mlmProbability = 0.15;
    std::uint64_t seed = 0; // this peer's own: every peer draws its own order of the data
};

// A volunteer's share of the work: draws micro-batches of MLM + SOP examples from its data and adds their
// gradients into the model's .grad, weighted by the micro-batch's size, so that after n samples the
// gradients hold n times the per-sample mean (ModelReplica::gradientVector divides). hivemind's
// GradientAverager accumulates the same sample-weighted mean of micro-batch losses.
//
// Owned by the training thread.
class GradientAccumulator {
public:
    // Reads the tokenizer and opens the corpus. Throws std::runtime_error naming the file on failure.
    explicit GradientAccumulator(AccumulatorOptions options);
    ~GradientAccumulator();

    // One micro-batch forward and backward. Returns the samples it added.
    std::int64_t accumulate(ModelReplica& replica);

    std::int64_t samples() const { return samples_; }
    // Mean training loss (MLM + SOP) over the samples accumulated since the last reset.
    double meanLoss() const { return samples_ > 0 ? lossSum_ / static_cast<double>(samples_) : 0.0; }
    std::int64_t tokens() const { return tokens_; }
    // Samples per micro-batch from the next one on: the user's memory limit, changed while training.
    void setMicroBatchSize(int samples);
    int microBatchSize() const;
    // Forget the accumulation (the caller zeroes the gradients with it).
    void reset();

private:
    AccumulatorOptions options_;
    std::unique_ptr<text::Tokenizer> tokenizer_;
    std::unique_ptr<text::PretrainingStream> stream_;
    std::int64_t samples_ = 0;
    std::int64_t tokens_ = 0;
    double lossSum_ = 0.0;
};

} // namespace sahaj::engine
