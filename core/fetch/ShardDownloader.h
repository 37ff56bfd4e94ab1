#pragma once

#include "core/fetch/DownloadProgress.h"
#include "core/fetch/DownloadReport.h"
#include "core/fetch/HttpFetch.h"
#include "core/fetch/ShardCache.h"
#include "core/fetch/ShardMirror.h"
#include "core/fetch/TransferSettings.h"
#include "core/run/DataShard.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace sahaj::fetch {

// Every place of a shard failed: the message lists each with its reason. `diskFull` when the shard
// could not be stored, whatever the places did (the volunteer must free space; retrying will not help).
class DownloadFailed : public std::runtime_error {
public:
    DownloadFailed(const QString& message, std::vector<PlaceFailure> failures, bool diskFull)
        : std::runtime_error(message.toStdString()), failures(std::move(failures)), diskFull(diskFull) {}
    std::vector<PlaceFailure> failures;
    bool diskFull;
};

// Brings one shard into the cache from its places, tried in order: a file:// place is checked and used
// where it is; a remote place is downloaded into the shard's partial file, resumed from what an earlier
// try left there (from any place: they serve the same bytes), hashed while it streams, cut off at the
// manifest's size, and committed only when size and SHA-256 match. A place that fails (unreachable,
// 404, stalled, wrong bytes) is reported and the next is tried; bytes that fail the hash are discarded.
class ShardDownloader {
public:
    ShardDownloader(ShardCache& cache, TransferSettings settings);

    // `mirrors` come after the shard's own places (the coordinator's). `keep`: shards the cache must
    // not evict to make room (the one being trained on). Throws DownloadFailed when no place delivered,
    // std::runtime_error when cancelled.
    DownloadReport fetch(const run::DataShard& shard,
                         const std::vector<std::shared_ptr<ShardMirror>>& mirrors = {},
                         const QSet<QString>& keep = {}, const ProgressCallback& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

private:
    // A remote place: streams bytes [offset, offset + limit) of the shard to the sink.
    using Transfer = std::function<FetchResult(std::int64_t offset, std::int64_t limit,
                                               const HttpFetch::Sink&, const HttpFetch::Progress&)>;
    // How one place's try ended: NotStored and DiskFull are this machine's failures, not the place's.
    enum class Attempt { Delivered, NextPlace, NotStored, DiskFull };
    Attempt download(const run::DataShard& shard, const QString& place, const Transfer& transfer,
                     const QSet<QString>& keep, const ProgressCallback& progress, DownloadReport& report);

    ShardCache& cache_;
    TransferSettings settings_;
};

} // namespace sahaj::fetch
