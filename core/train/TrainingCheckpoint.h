#pragma once

#include "core/optim/LambOptions.h"
#include "core/text/CorpusReader.h"
#include "core/text/StreamPosition.h"

#include <QJsonObject>

#include <cstdint>
#include <filesystem>
#include <string>

namespace sahaj::model {
class AlbertForPreTraining;
}

namespace sahaj::train {

class Lamb;

// Everything about a run that is not a tensor: written to optimizer.json next to the tensors.
struct TrainingCheckpointInfo {
    static constexpr int kFormatVersion = 1;

    std::int64_t step = 0;             // optimiser steps completed (the schedule's position)
    text::StreamPosition dataPosition; // where the data stream continues
    std::uint64_t seed = 0;
    std::string configName;
    std::int64_t batchSize = 0;
    std::int64_t microBatchSize = 0;
    std::int64_t sequenceLength = 0;
    optim::LambOptions lamb; // learningRate is the schedule's peak
    std::int64_t warmupSteps = 0;
    std::int64_t scheduleSteps = 0;
    double clipNorm = 0.0;
    std::string corpus; // for the record; a resumed run may read the corpus from another place
    text::PlainTextDocuments documents =
        text::PlainTextDocuments::LinePerDocument; // data positions depend on it
    std::string tokenizer;                         // likewise

    QJsonObject toJson() const;
    // Throws std::runtime_error naming the missing or malformed field.
    static TrainingCheckpointInfo fromJson(const QJsonObject& json);
};

// A training checkpoint: DIR/checkpoint/ holding
//   config.json, model.safetensors   the model in Hugging Face layout (loads in `transformers`)
//   optimizer.safetensors            LAMB's state (Lamb::exportState names)
//   optimizer.json                   TrainingCheckpointInfo
// It is written into DIR/checkpoint.tmp and swapped in by renames (the previous one is kept as
// DIR/checkpoint.old until the new one is in place), so a crash at any moment leaves a complete
// checkpoint: the new one, or the previous one, which load() and exists() fall back to.
class TrainingCheckpoint {
public:
    static std::filesystem::path directory(const std::filesystem::path& outputDir);

    // True when DIR holds a checkpoint (or the previous one left by an interrupted swap).
    static bool exists(const std::filesystem::path& outputDir);

    // Tensors are copied to the CPU; the model stays where it is. Throws std::runtime_error on I/O errors.
    static void save(const std::filesystem::path& outputDir, const model::AlbertForPreTraining& model,
                     const Lamb& optimizer, const TrainingCheckpointInfo& info);

    // Reads optimizer.json only (to check a resume against the command line before building anything).
    static TrainingCheckpointInfo readInfo(const std::filesystem::path& outputDir);

    // Loads the model weights and the optimiser state into existing objects built for the same config,
    // after checking config.json against model.config(). Throws std::runtime_error naming the file and
    // the problem.
    static TrainingCheckpointInfo load(const std::filesystem::path& outputDir,
                                       model::AlbertForPreTraining& model, Lamb& optimizer);

    // The folder to read from: DIR/checkpoint, or DIR/checkpoint.old after a swap cut short by a crash.
    // Empty when neither holds a checkpoint.
    static std::filesystem::path readableDirectory(const std::filesystem::path& outputDir);
};

} // namespace sahaj::train
