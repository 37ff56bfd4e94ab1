#include "core/train/LocalTrainerOptions.h"

#include <stdexcept>

namespace sahaj::train {

namespace {

void require(bool ok, const std::string& message) {
    if (!ok)
        throw std::invalid_argument(message);
}

} // namespace

void LocalTrainerOptions::validate() const {
    config.validate();
    require(!corpusPath.empty(), "no corpus given");
    require(!tokenizerPath.empty(), "no tokenizer given");
    require(!outputDir.empty(), "no output folder given");
    require(steps >= 1, "steps must be at least 1, got " + std::to_string(steps));
    require(batchSize >= 1, "batch size must be at least 1, got " + std::to_string(batchSize));
    require(microBatchSize >= 0 && microBatchSize <= batchSize,
            "micro-batch size must be between 1 and the batch size " + std::to_string(batchSize) + ", got " +
                std::to_string(microBatchSize));
    // [CLS] A [SEP] B [SEP] needs room for two segments of at least one token each.
    require(sequenceLength >= 5, "sequence length must be at least 5, got " + std::to_string(sequenceLength));
    require(sequenceLength <= config.maxPositionEmbeddings,
            "sequence length " + std::to_string(sequenceLength) + " exceeds the model's " +
                std::to_string(config.maxPositionEmbeddings) + " positions");
    require(device == "cpu" || device == "cuda" || device.rfind("cuda:", 0) == 0,
            "device must be cpu or cuda, got '" + device + "'");
    lamb.validate();
    require(warmupSteps >= 0, "warmup steps must be >= 0, got " + std::to_string(warmupSteps));
    require(scheduleSteps >= 0, "schedule steps must be >= 0, got " + std::to_string(scheduleSteps));
    require(clipNorm > 0.0 && clipNorm < 1e30,
            "gradient clip norm must be positive, got " + std::to_string(clipNorm));
    require(checkpointEvery >= 0, "checkpoint interval must be >= 0, got " + std::to_string(checkpointEvery));
    require(logEvery >= 1, "log interval must be at least 1, got " + std::to_string(logEvery));
}

} // namespace sahaj::train
