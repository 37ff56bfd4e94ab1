#include "core/model/ModelCheckpoint.h"

#include "core/array/AtomicFile.h"
#include "core/model/ModelDirectoryWriter.h"
#include "core/model/NamedTensorLoader.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace sahaj::model {

namespace {

c10::ScalarType storageType(StoragePrecision precision) {
    switch (precision) {
    case StoragePrecision::Float16:
        return c10::ScalarType::Half;
    case StoragePrecision::BFloat16:
        return c10::ScalarType::BFloat16;
    case StoragePrecision::Float32:
        break;
    }
    return c10::ScalarType::Float;
}

// transformers' name for the dtype in config.json ("torch_dtype").
const char* torchDtypeName(StoragePrecision precision) {
    switch (precision) {
    case StoragePrecision::Float16:
        return "float16";
    case StoragePrecision::BFloat16:
        return "bfloat16";
    case StoragePrecision::Float32:
        break;
    }
    return "float32";
}

} // namespace

SafeTensors::Tensors ModelCheckpoint::tensorsOf(const AlbertForPreTraining& model,
                                                StoragePrecision precision) {
    SafeTensors::Tensors tensors;
    const auto type = storageType(precision);
    for (const auto& item : model->named_parameters())
        tensors.emplace(item.key(), item.value().detach().to(at::kCPU, type));
    return tensors;
}

void ModelCheckpoint::save(const AlbertForPreTraining& model, const std::filesystem::path& directory,
                           StoragePrecision precision) {
    ModelDirectoryWriter::createDirectory(directory);
    array::AtomicFile::write(directory / kConfigFileName,
                             ModelDirectoryWriter::configText(model->config(), torchDtypeName(precision)));
    SafeTensors::write(directory / kWeightsFileName, tensorsOf(model, precision), {{"format", "pt"}});
}

AlbertForPreTraining ModelCheckpoint::load(const std::filesystem::path& directory) {
    const AlbertConfig config = AlbertConfig::loadFile(directory / kConfigFileName);
    AlbertForPreTraining model(config);
    loadWeights(model, directory / kWeightsFileName);
    return model;
}

void ModelCheckpoint::loadWeights(AlbertForPreTraining& model, const std::filesystem::path& weightsFile) {
    loadTensors(model, SafeTensors::read(weightsFile).tensors, "'" + weightsFile.string() + "'");
}

void ModelCheckpoint::loadTensors(AlbertForPreTraining& model, const SafeTensors::Tensors& tensors,
                                  const std::string& source) {
    NamedTensorLoader::Ignorable ignorable{{"albert.embeddings.position_ids", std::nullopt}};
    const auto stateDict = model->stateDict();
    for (const auto& [alias, target] : AlbertForPreTrainingImpl::tiedAliases())
        ignorable.emplace(alias, stateDict[alias].sizes().vec());
    NamedTensorLoader::load(model->named_parameters(), tensors, ignorable, source);
}

} // namespace sahaj::model
