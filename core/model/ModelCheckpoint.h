#pragma once

#include "core/model/AlbertForPreTraining.h"
#include "core/model/ModelDirectoryWriter.h"
#include "core/model/SafeTensors.h"

#include <filesystem>
#include <string>

namespace sahaj::model {

// The precision tensors are stored in; loading always converts back to the model's dtype (fp32).
enum class StoragePrecision { Float32, Float16, BFloat16 };

// A model directory in Hugging Face layout: config.json + model.safetensors, loadable with
// AlbertForPreTraining.from_pretrained(dir). As transformers' save_pretrained does, the file leaves out
// the tied aliases predictions.decoder.weight/bias (they are the word embeddings and predictions.bias)
// and carries the metadata {"format": "pt"} that transformers requires.
class ModelCheckpoint {
public:
    static constexpr const char* kConfigFileName = ModelDirectoryWriter::kConfigFileName;
    static constexpr const char* kWeightsFileName = ModelDirectoryWriter::kWeightsFileName;

    // Creates the directory if needed and writes both files, each atomically. config.json records the
    // precision as "torch_dtype".
    static void save(const AlbertForPreTraining& model, const std::filesystem::path& directory,
                     StoragePrecision precision = StoragePrecision::Float32);

    // Reads config.json, builds the model (CPU, fp32) and loads the weights. Throws std::runtime_error or
    // std::invalid_argument naming the file and the problem.
    static AlbertForPreTraining load(const std::filesystem::path& directory);

    // The tensors save() stores, by Hugging Face name, converted to the precision.
    static SafeTensors::Tensors tensorsOf(const AlbertForPreTraining& model, StoragePrecision precision);

    // Copies named tensors into the model's parameters (any device, converting floating dtypes). Every
    // parameter must be present with its exact shape. The tied aliases are accepted and skipped, as is
    // "albert.embeddings.position_ids", a buffer older transformers versions saved. Anything else is
    // reported: one std::runtime_error listing the missing, unexpected and mis-shaped tensors, naming
    // `source`. Nothing is modified unless everything matches.
    static void loadTensors(AlbertForPreTraining& model, const SafeTensors::Tensors& tensors,
                            const std::string& source);
    static void loadWeights(AlbertForPreTraining& model, const std::filesystem::path& weightsFile);
};

} // namespace sahaj::model
