#pragma once

#include "core/fetch/DownloadProgress.h"
#include "core/fetch/DownloadReport.h"
#include "core/fetch/TransferSettings.h"
#include "core/run/RunManifest.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
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
};

// The files a volunteer trains with, on this machine and checked.
struct PreparedData {
    QString corpusPath;
    QString tokenizerPath;
    // Where the shard came from, and the places that failed or misbehaved on the way (for the log).
    QString corpusPlace;
    std::vector<fetch::PlaceFailure> failures;
};

// Before a volunteer trains: its tokenizer (a local path, or downloaded by URL into the cache) and its
// first shard, the first of its own order (run::ShardOrder) that some place delivers, found in `dataDir`,
// in the cache, or downloaded there. Every file is checked against the manifest's size and SHA-256 before
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
