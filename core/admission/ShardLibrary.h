#pragma once

#include "core/run/DataShard.h"
#include "core/run/RunManifest.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace sahaj::admission {

// The files a coordinator's mirror serves: the run's shards (and its tokenizer, when the manifest fetches
// it by URL) that it found in a folder and checked against the manifest once, at start. Only these are
// ever read: a request names a file by its SHA-256, never by a path.
class ShardLibrary {
public:
    struct Entry {
        QString path;
        std::int64_t bytes = 0;
    };

    // Looks in `folder` for each file of the manifest under the file name of one of its URLs (the layout
    // run-init --url-prefix gives the folder a web server serves) and keeps those whose size and SHA-256
    // match. `missing` gets a line for each file not there or not matching. Throws std::runtime_error
    // when the folder does not exist.
    static ShardLibrary fromFolder(const run::RunManifest& manifest, const QString& folder,
                                   QStringList* missing = nullptr);

    // The file with SHA-256 `sha256Hex`, if served.
    std::optional<Entry> find(const QString& sha256Hex) const;
    std::size_t size() const { return std::size_t(entries_.size()); }

private:
    QHash<QString, Entry> entries_;
};

} // namespace sahaj::admission
