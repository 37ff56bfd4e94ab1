#pragma once

#include "core/model/AlbertForClassification.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sahaj::model {

// A fine-tuned classifier in Hugging Face layout: config.json (the ALBERT config with "architectures",
// "id2label" and "label2id") and model.safetensors (fp32, {"format": "pt"}), loadable with
// AlbertForTokenClassification / AlbertForSequenceClassification.from_pretrained(dir).
class ClassificationCheckpoint {
public:
    struct Loaded {
        AlbertForClassification model{nullptr};
        std::vector<std::string> labels; // by class id
    };

    // labels[i] names class i; there must be one per output and no duplicates (std::invalid_argument).
    // Creates the directory if needed; each file is written atomically.
    static void save(const AlbertForClassification& model, const std::vector<std::string>& labels,
                     const std::filesystem::path& directory);

    // Throws std::runtime_error naming the file and the problem: unreadable, an architecture other than
    // the two classification heads, id2label not naming classes 0..n-1 once each, weights that do not fit.
    static Loaded load(const std::filesystem::path& directory);
};

} // namespace sahaj::model
