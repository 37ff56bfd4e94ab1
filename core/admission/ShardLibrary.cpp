#include "core/admission/ShardLibrary.h"

#include "core/run/ShardVerifier.h"

#include <QFileInfo>

#include <stdexcept>

namespace sahaj::admission {

ShardLibrary ShardLibrary::fromFolder(const run::RunManifest& manifest, const QString& folder,
                                      QStringList* missing) {
    if (!QFileInfo(folder).isDir())
        throw std::runtime_error("the data folder '" + folder.toStdString() + "' does not exist");
    std::vector<run::DataShard> files = manifest.data;
    if (!manifest.tokenizer.url.isEmpty())
        files.push_back(manifest.tokenizer.asDownload());
    ShardLibrary library;
    for (const run::DataShard& file : files) {
        try {
            if (const std::optional<QString> path = run::ShardVerifier::findInFolder(file, folder)) {
                library.entries_.insert(file.sha256, Entry{*path, file.bytes});
                continue;
            }
            if (missing)
                missing->append(QStringLiteral("%1: not in %2").arg(file.name(), folder));
        } catch (const std::runtime_error& e) {
            if (missing)
                missing->append(QString::fromUtf8(e.what()));
        }
    }
    return library;
}

std::optional<ShardLibrary::Entry> ShardLibrary::find(const QString& sha256Hex) const {
    const auto found = entries_.constFind(sha256Hex);
    if (found == entries_.constEnd())
        return std::nullopt;
    return *found;
}

} // namespace sahaj::admission
