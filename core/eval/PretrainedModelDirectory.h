#pragma once

#include <filesystem>
#include <optional>

namespace sahaj::eval {

// Where a pre-trained model is, given what a user points at: a model folder in Hugging Face layout
// (config.json + model.safetensors, from a collaboration or `transformers`), a train-local checkpoint
// folder (the same plus the optimiser's files), or a train-local output folder (its checkpoint/, or
// checkpoint.old after an interrupted save).
struct PretrainedModelDirectory {
    std::filesystem::path model;
    // The tokenizer the model was trained with, when the folder says: its own tokenizer.json, else the
    // existing file a train-local checkpoint names.
    std::optional<std::filesystem::path> tokenizer;

    // Throws std::runtime_error saying what was expected when `given` holds none of these.
    static PretrainedModelDirectory locate(const std::filesystem::path& given);
};

} // namespace sahaj::eval
