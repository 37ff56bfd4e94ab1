#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sahaj::model {

// The hyperparameters of an ALBERT model, field for field those of Hugging Face's AlbertConfig, so that
// config.json files move between this project and `transformers` unchanged. The member defaults are the
// sahajbert sizes; named() and fromJson() are the usual ways to get a config.
struct AlbertConfig {
    std::int64_t vocabSize = 32000;
    std::int64_t embeddingSize = 128;
    std::int64_t hiddenSize = 1024;
    std::int64_t numHiddenLayers = 24;
    // Layers are split into groups that share weights; ALBERT uses one group with one layer, shared by
    // all numHiddenLayers applications. Any grouping that Hugging Face accepts is supported.
    std::int64_t numHiddenGroups = 1;
    std::int64_t numAttentionHeads = 16;
    std::int64_t intermediateSize = 4096;
    std::int64_t innerGroupNum = 1;
    std::string hiddenAct = "gelu_new";
    double hiddenDropoutProb = 0.0;
    double attentionProbsDropoutProb = 0.0;
    std::int64_t maxPositionEmbeddings = 512;
    std::int64_t typeVocabSize = 2;
    double initializerRange = 0.02;
    double layerNormEps = 1e-12;
    double classifierDropoutProb = 0.1;
    // Token ids; nullopt is JSON null. The padding id also makes its embedding row start at zero and
    // receive no gradient from the input side, as nn.Embedding(padding_idx=...) does in Hugging Face.
    std::optional<std::int64_t> padTokenId = 0;
    std::optional<std::int64_t> bosTokenId = 2;
    std::optional<std::int64_t> eosTokenId = 3;

    // Built-in sizes: "sahajbert" (ALBERT-large v2 with the 32,000-entry sahajBERT vocabulary), "small"
    // (for CPU experiments) and "tiny" (for tests). Throws std::invalid_argument listing the known names.
    static AlbertConfig named(std::string_view name);
    static std::vector<std::string> knownNames();

    // Hugging Face config.json. fromJson takes missing keys from Hugging Face's AlbertConfig defaults (as
    // `transformers` does), ignores unknown keys, and throws std::invalid_argument naming the key for a
    // value of the wrong type, a "model_type" other than "albert", or a position_embedding_type other
    // than "absolute". Both validate().
    static AlbertConfig fromJson(const nlohmann::json& json);
    nlohmann::json toJson() const;
    static AlbertConfig loadFile(const std::filesystem::path& path);
    // The parsed JSON of a config file, for callers that read more keys than the config holds (a
    // classifier's id2label). Throws std::runtime_error for an unreadable file or invalid JSON.
    static nlohmann::json readJsonFile(const std::filesystem::path& path);
    // Writes atomically (temporary file, then rename).
    void saveFile(const std::filesystem::path& path) const;

    // Throws std::invalid_argument with every problem found (non-positive sizes, hidden size not a
    // multiple of the head count, unsupported activation, ids outside the vocabulary, ...).
    void validate() const;

    // Number of distinct parameters (tied tensors counted once), computed from the sizes alone; equals
    // AlbertForPreTraining::parameterCount() for the same config.
    std::int64_t parameterCount() const;

    bool operator==(const AlbertConfig&) const = default;
};

} // namespace sahaj::model
