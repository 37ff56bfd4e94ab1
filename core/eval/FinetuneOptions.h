#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::eval {

enum class FinetuneTask {
    Ner,      // token classification, CoNLL files, entity-level micro F1
    Classify, // text classification, JSONL or TSV, accuracy
};

// How `finetune` trains. The defaults are the protocol sahajBERT's downstream scores were measured with:
// AdamW at 1e-5 (betas 0.9/0.999, eps 1e-8, no weight decay), linear decay to 0 without warmup, gradient
// norm clipped at 1.0, inputs cut at 128 tokens, batches of 128 built by accumulation, up to 20 epochs with
// early stopping on the dev metric (patience 3, threshold 0.01), the best dev epoch kept.
struct FinetuneOptions {
    FinetuneTask task = FinetuneTask::Ner;
    double learningRate = 1e-5;
    double weightDecay = 0.0;
    double warmupRatio = 0.0; // share of all steps spent warming up
    double clipNorm = 1.0;
    std::int64_t maxLength = 128;
    std::int64_t maxEpochs = 20;
    std::int64_t batchSize = 128;
    std::int64_t microBatchSize = 32;
    std::int64_t evalBatchSize = 64;
    std::int64_t patience = 3; // epochs without an improvement above the threshold before stopping
    double threshold = 0.01;   // on the dev metric, in [0, 1] (F1 or accuracy)
    std::vector<std::uint64_t> seeds{1};
    std::string device = "cpu";

    // Throws std::invalid_argument naming the first bad setting.
    void validate() const;
    std::int64_t effectiveMicroBatchSize() const {
        return microBatchSize < batchSize ? microBatchSize : batchSize;
    }

    static const char* taskName(FinetuneTask task);   // "ner" / "classify"
    static const char* metricName(FinetuneTask task); // "f1" / "accuracy"
};

} // namespace sahaj::eval
