#pragma once

#include "core/array/SafeTensorsImage.h"
#include "core/model/AlbertConfig.h"

#include <filesystem>

namespace sahaj::model {

// Writes a model directory in Hugging Face layout (config.json + model.safetensors, as ModelCheckpoint)
// from host arrays, without libtorch: the engine saves the coordinator's model this way from its flat
// replica. The arrays are fp32 by Hugging Face name (AlbertParameterLayout); config.json says
// "torch_dtype": "float32" and the weights carry {"format": "pt"}, which transformers requires.
class ModelDirectoryWriter {
public:
    static constexpr const char* kConfigFileName = "config.json";
    static constexpr const char* kWeightsFileName = "model.safetensors";

    // Creates the directory if needed; each file is written atomically. Throws std::runtime_error for I/O
    // failures, std::invalid_argument for arrays whose bytes do not match their shapes.
    static void write(const AlbertConfig& config, const array::SafeTensorsImage::Arrays& parameters,
                      const std::filesystem::path& directory);
    // config.json's text with the given "torch_dtype" ("float32", "float16", "bfloat16").
    static std::string configText(const AlbertConfig& config, const char* torchDtype);
    static void createDirectory(const std::filesystem::path& directory);
};

} // namespace sahaj::model
