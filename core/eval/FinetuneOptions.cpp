#include "core/eval/FinetuneOptions.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace sahaj::eval {

namespace {

void require(bool condition, const std::string& message) {
    if (!condition)
        throw std::invalid_argument(message);
}

} // namespace

void FinetuneOptions::validate() const {
    require(std::isfinite(learningRate) && learningRate > 0.0, "the learning rate must be positive");
    require(std::isfinite(weightDecay) && weightDecay >= 0.0, "the weight decay must be 0 or more");
    require(warmupRatio >= 0.0 && warmupRatio < 1.0, "the warmup ratio must be in [0, 1)");
    require(std::isfinite(clipNorm) && clipNorm > 0.0, "the gradient clip norm must be positive");
    // [CLS], one token and [SEP] at least.
    require(maxLength >= 3, "the maximum length must be at least 3 tokens");
    require(maxEpochs >= 1, "the number of epochs must be at least 1");
    require(batchSize >= 1 && microBatchSize >= 1 && evalBatchSize >= 1, "batch sizes must be at least 1");
    require(patience >= 1, "the early-stopping patience must be at least 1 epoch");
    require(threshold >= 0.0 && threshold < 1.0, "the early-stopping threshold must be in [0, 1)");
    require(!seeds.empty(), "at least one seed is needed");
    require(std::set<std::uint64_t>(seeds.begin(), seeds.end()).size() == seeds.size(),
            "each seed may be given once");
}

const char* FinetuneOptions::taskName(FinetuneTask task) {
    return task == FinetuneTask::Ner ? "ner" : "classify";
}

const char* FinetuneOptions::metricName(FinetuneTask task) {
    return task == FinetuneTask::Ner ? "f1" : "accuracy";
}

} // namespace sahaj::eval
