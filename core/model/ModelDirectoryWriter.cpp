#include "core/model/ModelDirectoryWriter.h"

#include "core/array/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace sahaj::model {

void ModelDirectoryWriter::createDirectory(const std::filesystem::path& directory) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        throw std::runtime_error("cannot create model directory '" + directory.string() +
                                 "': " + error.message());
}

std::string ModelDirectoryWriter::configText(const AlbertConfig& config, const char* torchDtype) {
    nlohmann::json json = config.toJson();
    json["torch_dtype"] = torchDtype;
    return json.dump(2) + "\n";
}

void ModelDirectoryWriter::write(const AlbertConfig& config,
                                 const array::SafeTensorsImage::Arrays& parameters,
                                 const std::filesystem::path& directory) {
    createDirectory(directory);
    array::AtomicFile::write(directory / kConfigFileName, configText(config, "float32"));
    array::SafeTensorsImage::write(directory / kWeightsFileName, parameters, {{"format", "pt"}});
}

} // namespace sahaj::model
