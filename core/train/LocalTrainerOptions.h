#pragma once

#include "core/model/AlbertConfig.h"
#include "core/optim/LambOptions.h"
#include "core/text/CorpusReader.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace sahaj::train {

// Everything a local training run is made of. The defaults are the sahajBERT recipe where one applies.
struct LocalTrainerOptions {
    // The model: a built-in config name (AlbertConfig::named) and the config itself.
    std::string configName = "tiny";
    model::AlbertConfig config = model::AlbertConfig::named("tiny");

    std::filesystem::path corpusPath;
    // How the plain-text corpus is cut into documents (sentences are packed within a document).
    text::PlainTextDocuments documents = text::PlainTextDocuments::LinePerDocument;
    std::filesystem::path tokenizerPath;
    // Holds log.jsonl and the checkpoint folder.
    std::filesystem::path outputDir;

    // Train until this global step (an absolute target: a resumed run continues up to it).
    std::int64_t steps = 0;
    // Samples per optimiser step; the gradient is accumulated over micro-batches of microBatchSize
    // samples (0 means batchSize: no accumulation).
    std::int64_t batchSize = 32;
    std::int64_t microBatchSize = 0;
    std::int64_t sequenceLength = 128;
    // Seeds the model's initialisation, the data stream and the per-step random state.
    std::uint64_t seed = 0;
    // "cpu" or "cuda" (or "cuda:N").
    std::string device = "cpu";

    // LAMB; lamb.learningRate is the peak of the schedule.
    optim::LambOptions lamb;
    std::int64_t warmupSteps = 5000;
    // Where the linear decay reaches 0; 0 means `steps`.
    std::int64_t scheduleSteps = 0;
    double clipNorm = 1.0;

    // Save a checkpoint every this many steps (0: only at the end); the end always saves one.
    std::int64_t checkpointEvery = 100;
    // Report progress every this many steps (log.jsonl gets every step regardless).
    std::int64_t logEvery = 1;
    // Continue from the checkpoint in outputDir instead of starting afresh.
    bool resume = false;

    std::int64_t effectiveMicroBatchSize() const { return microBatchSize > 0 ? microBatchSize : batchSize; }
    std::int64_t effectiveScheduleSteps() const { return scheduleSteps > 0 ? scheduleSteps : steps; }

    // Throws std::invalid_argument naming the first option out of range (and the config's own problems).
    void validate() const;
};

} // namespace sahaj::train
