#include "core/model/ModelCheckpoint.h"

#include "core/model/AtomicFile.h"

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

std::string shapeOf(at::IntArrayRef sizes) {
    std::ostringstream s;
    s << sizes;
    return s.str();
}

// "a, b, c (and 7 more)": long lists would bury the message.
std::string listed(const std::vector<std::string>& names) {
    constexpr std::size_t kShown = 8;
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > kShown)
        text += " (and " + std::to_string(names.size() - kShown) + " more)";
    return text;
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
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        throw std::runtime_error("cannot create model directory '" + directory.string() +
                                 "': " + error.message());
    nlohmann::json config = model->config().toJson();
    config["torch_dtype"] = torchDtypeName(precision);
    AtomicFile::write(directory / kConfigFileName, config.dump(2) + "\n");
    SafeTensors::write(directory / kWeightsFileName, tensorsOf(model, precision), {{"format", "pt"}});
}

AlbertForPreTraining ModelCheckpoint::load(const std::filesystem::path& directory) {
    const AlbertConfig config = AlbertConfig::loadFile(directory / kConfigFileName);
    AlbertForPreTraining model(config);
    loadWeights(model, directory / kWeightsFileName);
    return model;
}

void ModelCheckpoint::loadWeights(AlbertForPreTraining& model, const std::filesystem::path& weightsFile) {
    loadTensors(model, SafeTensors::read(weightsFile).tensors, std::string("'") + weightsFile.string() + "'");
}

void ModelCheckpoint::loadTensors(AlbertForPreTraining& model, const SafeTensors::Tensors& tensors,
                                  const std::string& source) {
    const auto parameters = model->named_parameters();
    std::set<std::string> skippable{"albert.embeddings.position_ids"};
    for (const auto& [alias, target] : AlbertForPreTrainingImpl::tiedAliases())
        skippable.insert(alias);

    std::vector<std::string> missing, unexpected, mismatched, wrongType;
    for (const auto& item : parameters) {
        const auto found = tensors.find(item.key());
        if (found == tensors.end()) {
            missing.push_back(item.key());
            continue;
        }
        if (!found->second.sizes().equals(item.value().sizes()))
            mismatched.push_back(item.key() + " " + shapeOf(found->second.sizes()) + " (model " +
                                 shapeOf(item.value().sizes()) + ")");
        else if (!at::isFloatingType(found->second.scalar_type()))
            wrongType.push_back(item.key() + " (" + c10::toString(found->second.scalar_type()) + ")");
    }
    const auto stateDict = model->stateDict();
    for (const auto& [name, tensor] : tensors) {
        if (parameters.contains(name))
            continue;
        if (!skippable.count(name)) {
            unexpected.push_back(name);
            continue;
        }
        // A tied alias in the file must at least fit what it aliases.
        if (const auto* aliased = stateDict.find(name); aliased && !tensor.sizes().equals(aliased->sizes()))
            mismatched.push_back(name + " " + shapeOf(tensor.sizes()) + " (model " +
                                 shapeOf(aliased->sizes()) + ")");
    }
    if (!missing.empty() || !unexpected.empty() || !mismatched.empty() || !wrongType.empty()) {
        std::string message = "model weights " + source + " do not match the model:";
        if (!missing.empty())
            message += " missing " + std::to_string(missing.size()) + " tensor(s): " + listed(missing) + ";";
        if (!unexpected.empty())
            message += " unexpected " + std::to_string(unexpected.size()) +
                       " tensor(s): " + listed(unexpected) + ";";
        if (!mismatched.empty())
            message += " wrong shape: " + listed(mismatched) + ";";
        if (!wrongType.empty())
            message += " not floating point: " + listed(wrongType) + ";";
        message.pop_back();
        throw std::runtime_error(message);
    }
    torch::NoGradGuard noGrad;
    for (const auto& item : parameters)
        item.value().copy_(tensors.at(item.key())); // converts dtype and device, keeps the tie
}

} // namespace sahaj::model
