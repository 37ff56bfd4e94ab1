#pragma once

#include "core/engine/DataCursor.h"
#include "core/fetch/DownloadProgress.h"
#include "core/fetch/DownloadReport.h"
#include "core/fetch/ShardMirror.h"
#include "core/fetch/TransferSettings.h"
#include "core/run/RunManifest.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace sahaj::engine {

// Where a volunteer finds and keeps the run's files.
struct DataSources {
    // A folder that may already hold shards under their file names (copied by hand); empty: none.
    QString dataDir;
    // The shard cache's folder (fetch::ShardCache) and its cap.
    QString cacheDir;
    std::int64_t cacheCapBytes = 20ll << 30;
    fetch::TransferSettings transfer;
    // Where the volunteer's place in its stream of shards is kept (DataCursor::pathIn); empty: nowhere,
    // every start begins with the peer's first shard.
    QString cursorPath;
    // Tried after a file's own places: the coordinator's mirror (VolunteerAdmission::coordinatorMirror).
    std::vector<std::shared_ptr<fetch::ShardMirror>> mirrors;
};

// The files a volunteer trains with, on this machine and checked.
struct PreparedData {
    QString corpusPath;
    QString tokenizerPath;
    // Where the shard came from, and the places that failed or misbehaved on the way (for the log).
    QString corpusPlace;
    std::vector<fetch::PlaceFailure> failures;
    // What each fetch moved (the tokenizer's, then the shard's): from where, and how much was resumed.
    std::vector<std::pair<QString, fetch::DownloadReport>> fetched; // the file's name, its report
    // The shard's place in the peer's stream, and where training goes on inside it (a saved cursor's).
    DataCursor cursor;
};

// Before a volunteer trains: its tokenizer (a local path, or downloaded by URL into the cache) and its
// first shard: the one its saved cursor names (where it stopped), else the first of its own order
// (run::ShardOrder), or the first after it that some place delivers, found in `dataDir`, in the cache,
// or downloaded there. Every file is checked against the manifest's size and SHA-256 before
// it is used. Blocking (downloads); never called on the collaboration thread.
class DataPreparation {
public:
    using Log = std::function<void(const QString&)>;
    // Throws std::runtime_error saying what failed (every place of every shard tried, with its reason;
    // or a full disk) when nothing can be trained on.
    static PreparedData prepare(const run::RunManifest& manifest, const QString& peerId,
                                const DataSources& sources, const fetch::ProgressCallback& progress = {},
                                const Log& log = {}, const std::atomic<bool>* cancel = nullptr);
};

} // namespace sahaj::engine
