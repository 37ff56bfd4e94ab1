#include "core/model/ClassificationCheckpoint.h"

#include "core/array/AtomicFile.h"
#include "core/model/ModelCheckpoint.h"
#include "core/model/NamedTensorLoader.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <set>
#include <stdexcept>

namespace fs = std::filesystem;

namespace sahaj::model {

namespace {

std::vector<std::string> labelsOf(const nlohmann::json& config, const std::string& file) {
    const auto fail = [&](const std::string& problem) { throw std::runtime_error(file + ": " + problem); };
    const auto found = config.find("id2label");
    if (found == config.end() || !found->is_object() || found->empty())
        fail("\"id2label\" must be an object naming every class");
    std::vector<std::string> labels(found->size());
    std::vector<bool> seen(found->size(), false);
    std::set<std::string> names;
    for (const auto& [key, value] : found->items()) {
        std::size_t id = 0;
        std::size_t used = 0;
        try {
            id = std::stoul(key, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != key.size() || id >= labels.size() || seen[id])
            fail("\"id2label\" keys must be the class ids 0.." + std::to_string(labels.size() - 1) +
                 " once each, got \"" + key + "\"");
        if (!value.is_string() || value.get<std::string>().empty())
            fail("\"id2label\"[\"" + key + "\"] must be a non-empty string");
        if (!names.insert(value.get<std::string>()).second)
            fail("\"id2label\" names \"" + value.get<std::string>() + "\" twice");
        labels[id] = value.get<std::string>();
        seen[id] = true;
    }
    return labels;
}

ClassificationHead headOf(const nlohmann::json& config, const std::string& file) {
    const auto found = config.find("architectures");
    if (found != config.end() && found->is_array() && found->size() == 1 && found->front().is_string()) {
        const std::string name = found->front().get<std::string>();
        for (const ClassificationHead head : {ClassificationHead::Token, ClassificationHead::Sequence})
            if (name == AlbertForClassificationImpl::architecture(head))
                return head;
    }
    throw std::runtime_error(file + ": \"architectures\" must be [\"AlbertForTokenClassification\"] or "
                                    "[\"AlbertForSequenceClassification\"]");
}

} // namespace

void ClassificationCheckpoint::save(const AlbertForClassification& model,
                                    const std::vector<std::string>& labels, const fs::path& directory) {
    if (static_cast<std::int64_t>(labels.size()) != model->numLabels())
        throw std::invalid_argument("the model has " + std::to_string(model->numLabels()) + " classes but " +
                                    std::to_string(labels.size()) + " label names were given");
    if (std::set<std::string>(labels.begin(), labels.end()).size() != labels.size())
        throw std::invalid_argument("label names must be distinct");
    std::error_code error;
    fs::create_directories(directory, error);
    if (error)
        throw std::runtime_error("cannot create model directory '" + directory.string() +
                                 "': " + error.message());

    nlohmann::json config = model->config().toJson();
    config["architectures"] = {AlbertForClassificationImpl::architecture(model->head())};
    config["id2label"] = nlohmann::json::object();
    config["label2id"] = nlohmann::json::object();
    for (std::size_t id = 0; id < labels.size(); ++id) {
        config["id2label"][std::to_string(id)] = labels[id];
        config["label2id"][labels[id]] = id;
    }
    config["torch_dtype"] = "float32";
    array::AtomicFile::write(directory / ModelCheckpoint::kConfigFileName, config.dump(2) + "\n");

    SafeTensors::Tensors tensors;
    for (const auto& item : model->named_parameters())
        tensors.emplace(item.key(), item.value().detach().to(at::kCPU, at::kFloat));
    SafeTensors::write(directory / ModelCheckpoint::kWeightsFileName, tensors, {{"format", "pt"}});
}

ClassificationCheckpoint::Loaded ClassificationCheckpoint::load(const fs::path& directory) {
    const fs::path configFile = directory / ModelCheckpoint::kConfigFileName;
    const nlohmann::json json = AlbertConfig::readJsonFile(configFile);
    if (!json.is_object())
        throw std::runtime_error(configFile.string() + ": not a JSON object");
    AlbertConfig config;
    try {
        config = AlbertConfig::fromJson(json);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(configFile.string() + ": " + e.what());
    }
    Loaded loaded;
    loaded.labels = labelsOf(json, configFile.string());
    loaded.model = AlbertForClassification(config, headOf(json, configFile.string()),
                                           static_cast<std::int64_t>(loaded.labels.size()));
    const fs::path weights = directory / ModelCheckpoint::kWeightsFileName;
    NamedTensorLoader::load(loaded.model->named_parameters(), SafeTensors::read(weights).tensors,
                            {{"albert.embeddings.position_ids", std::nullopt}}, "'" + weights.string() + "'");
    return loaded;
}

} // namespace sahaj::model
