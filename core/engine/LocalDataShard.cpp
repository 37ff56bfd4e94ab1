#include "core/engine/LocalDataShard.h"

#include "core/run/ShardVerifier.h"

#include <QDir>
#include <QFileInfo>

#include <stdexcept>

namespace sahaj::engine {

QString LocalDataShard::find(const run::RunManifest& manifest, const QString& dataDir) {
    if (manifest.data.empty())
        throw std::runtime_error("the manifest lists no data shard");
    const run::DataShard& shard = manifest.data.front();
    QString path = run::ShardVerifier::localFile(shard.url).value_or(QString());
    if (!dataDir.isEmpty())
        path = QDir(dataDir).filePath(QFileInfo(path.isEmpty() ? shard.url : path).fileName());
    if (path.isEmpty() || !QFileInfo(path).isFile())
        throw std::runtime_error(
            "the data shard " + shard.url.toStdString() +
            " is not on this machine: choose the folder that holds it (sahaj-node: --data-dir)");
    run::DataShard local = shard;
    local.url = QStringLiteral("file://") + QFileInfo(path).absoluteFilePath();
    if (!run::ShardVerifier::verify(local))
        throw std::runtime_error(path.toStdString() + " does not match the manifest's size and sha256 for " +
                                 shard.url.toStdString());
    return QFileInfo(path).absoluteFilePath();
}

} // namespace sahaj::engine
