#include "core/engine/StateCheckpoint.h"

#include "core/array/AtomicFile.h"
#include "core/collab/StateSnapshot.h"
#include "core/model/ModelDirectoryWriter.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <filesystem>
#include <stdexcept>

namespace sahaj::engine {

namespace fs = std::filesystem;

void StateCheckpoint::save(const QString& directory, const std::string& snapshotBytes,
                           const model::AlbertConfig& config,
                           const array::SafeTensorsImage::Arrays& parameters, const QString& tokenizerPath,
                           std::uint64_t epoch, const std::string& parametersSha256) {
    const fs::path root = directory.toStdString();
    fs::create_directories(root);
    const fs::path modelDir = root / kModelDirectory;
    model::ModelDirectoryWriter::write(config, parameters, modelDir);
    if (!tokenizerPath.isEmpty()) {
        QFile tokenizer(tokenizerPath);
        if (!tokenizer.open(QIODevice::ReadOnly))
            throw std::runtime_error(tokenizerPath.toStdString() + ": " +
                                     tokenizer.errorString().toStdString());
        array::AtomicFile::write(modelDir / "tokenizer.json", tokenizer.readAll().toStdString());
    }
    array::AtomicFile::write(root / kSnapshotFile, snapshotBytes);
    const QJsonObject info{{"epoch", static_cast<qint64>(epoch)},
                           {"params_sha256", QString::fromStdString(parametersSha256)}};
    array::AtomicFile::write(root / kInfoFile, QJsonDocument(info).toJson().toStdString());
}

std::optional<collab::TrainingState> StateCheckpoint::load(const QString& directory,
                                                           const std::string& schemaHash) {
    const QString path = QDir(directory).filePath(kSnapshotFile);
    QFile file(path);
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(path.toStdString() + ": " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    return collab::StateSnapshot::deserialize(
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), schemaHash,
        path.toStdString());
}

} // namespace sahaj::engine
