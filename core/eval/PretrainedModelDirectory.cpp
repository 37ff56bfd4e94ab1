#include "core/eval/PretrainedModelDirectory.h"

#include "core/model/ModelCheckpoint.h"
#include "core/train/TrainingCheckpoint.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <stdexcept>

namespace fs = std::filesystem;

namespace sahaj::eval {

namespace {

bool holdsModel(const fs::path& directory) {
    return fs::is_regular_file(directory / model::ModelCheckpoint::kConfigFileName) &&
           fs::is_regular_file(directory / model::ModelCheckpoint::kWeightsFileName);
}

// The tokenizer a train-local checkpoint records in optimizer.json, when that file still exists. Only a
// hint: a damaged or foreign optimizer.json is ignored here (loading the model reports real problems).
std::optional<fs::path> recordedTokenizer(const fs::path& directory) {
    QFile file(QString::fromStdString((directory / "optimizer.json").string()));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    const QString path = document.object().value("tokenizer").toString();
    if (path.isEmpty() || !fs::is_regular_file(path.toStdString()))
        return std::nullopt;
    return fs::path(path.toStdString());
}

PretrainedModelDirectory describe(const fs::path& directory) {
    PretrainedModelDirectory found{directory, std::nullopt};
    if (fs::is_regular_file(directory / "tokenizer.json"))
        found.tokenizer = directory / "tokenizer.json";
    else
        found.tokenizer = recordedTokenizer(directory);
    return found;
}

} // namespace

PretrainedModelDirectory PretrainedModelDirectory::locate(const fs::path& given) {
    if (!fs::exists(given))
        throw std::runtime_error(given.string() + ": no such folder");
    if (holdsModel(given))
        return describe(given);
    const fs::path checkpoint = train::TrainingCheckpoint::readableDirectory(given);
    if (!checkpoint.empty() && holdsModel(checkpoint))
        return describe(checkpoint);
    throw std::runtime_error(given.string() +
                             " holds no model: expected config.json and model.safetensors (Hugging Face "
                             "layout), or a train-local output folder with checkpoint/");
}

} // namespace sahaj::eval
