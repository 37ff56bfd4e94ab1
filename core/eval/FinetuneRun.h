#pragma once

#include "core/eval/FinetuneFeatures.h"
#include "core/eval/FinetuneOptions.h"
#include "core/eval/LabelSet.h"
#include "core/eval/TaskScores.h"
#include "core/model/AlbertForClassification.h"
#include "core/model/SafeTensors.h"

#include <c10/core/Device.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace torch::optim {
class Optimizer;
}

namespace sahaj::eval {

struct FinetuneEpoch {
    std::int64_t epoch = 0; // 1-based
    double trainLoss = 0.0; // mean over the epoch's optimiser steps
    TaskScores dev;
    bool best = false; // the dev metric is the best so far (this epoch's weights are kept)
    double seconds = 0.0;
};

struct FinetuneRunResult {
    std::uint64_t seed = 0;
    std::vector<FinetuneEpoch> history;
    std::int64_t bestEpoch = 0;
    bool stoppedEarly = false;
    TaskScores dev;  // of the kept (best) weights
    TaskScores test; // likewise
};

// Fine-tunes one classifier from a pre-trained body with one seed (FinetuneOptions has the recipe): the
// seed fixes the head's initialisation, the order of the training examples in every epoch and dropout.
// After each epoch the dev set is scored; the weights of the best dev epoch are kept and scored on test.
//
// Accumulation: a batch of batchSize examples is processed in micro-batches; each contributes its summed
// loss divided by the batch's number of scored labels, so the step equals one pass over the whole batch.
class FinetuneRun {
public:
    // Builds the classifier (labels.size() classes) on `device` and copies the pre-trained body. Throws
    // std::runtime_error when the pre-trained tensors do not fit the config.
    FinetuneRun(const FinetuneOptions& options, const model::AlbertConfig& config,
                const model::SafeTensors::Tensors& pretrained, const LabelSet& labels, std::uint64_t seed,
                c10::Device device);
    ~FinetuneRun();
    FinetuneRun(const FinetuneRun&) = delete;
    FinetuneRun& operator=(const FinetuneRun&) = delete;

    // `stop` is polled between micro-batches; when set, training ends after scoring what it has.
    FinetuneRunResult train(const std::vector<FinetuneFeatures>& trainSet,
                            const std::vector<FinetuneFeatures>& devSet,
                            const std::vector<FinetuneFeatures>& testSet,
                            const std::function<void(const FinetuneEpoch&)>& onEpoch = {},
                            const std::atomic<bool>* stop = nullptr);

    // Scores the current weights (eval mode, no gradients).
    TaskScores evaluate(const std::vector<FinetuneFeatures>& examples);

    const model::AlbertForClassification& model() const { return model_; }

private:
    struct Batch;
    Batch collate(const std::vector<FinetuneFeatures>& examples, const std::vector<std::size_t>& order,
                  std::size_t begin, std::size_t end) const;
    at::Tensor summedLoss(const Batch& batch);
    double trainEpoch(const std::vector<FinetuneFeatures>& trainSet, std::int64_t epoch,
                      const std::atomic<bool>* stop);
    std::int64_t scoredLabels(const std::vector<FinetuneFeatures>& examples,
                              const std::vector<std::size_t>& order, std::size_t begin,
                              std::size_t end) const;

    FinetuneOptions options_;
    LabelSet labels_;
    std::uint64_t seed_;
    c10::Device device_;
    std::int64_t padId_;
    model::AlbertForClassification model_{nullptr};
    std::unique_ptr<torch::optim::Optimizer> optimizer_;
    std::int64_t stepsDone_ = 0;
    std::int64_t totalSteps_ = 0;
    bool interrupted_ = false;
};

} // namespace sahaj::eval
