#include "core/engine/ShardFeed.h"

#include "core/fetch/ShardCache.h"
#include "core/fetch/ShardDownloader.h"
#include "core/run/ShardVerifier.h"

namespace sahaj::engine {

ShardFeed::ShardFeed(Options options, const DataCursor& current)
    : options_(std::move(options)), fetchAfter_(current), inUse_{current.sha256} {
    thread_ = std::thread([this] { run(); });
}

std::shared_ptr<ShardFeed> ShardFeed::after(const run::RunManifest& manifest, const QString& peerId,
                                            const DataSources& sources, const PreparedData& prepared) {
    // One shard: the training stream goes through it pass after pass by itself, with nothing to fetch.
    if (manifest.data.size() < 2)
        return nullptr;
    Options options;
    options.shards = manifest.data;
    options.runId = manifest.runId;
    options.peerId = peerId;
    options.sources = sources;
    if (!manifest.tokenizer.url.isEmpty())
        options.keep.insert(manifest.tokenizer.sha256);
    options.cursorPath = sources.cursorPath;
    return std::make_shared<ShardFeed>(std::move(options), prepared.cursor);
}

ShardFeed::~ShardFeed() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void ShardFeed::note(const QString& line) {
    const std::lock_guard lock(mutex_);
    messages_.append(line);
}

QStringList ShardFeed::takeMessages() {
    const std::lock_guard lock(mutex_);
    return std::exchange(messages_, {});
}

std::optional<ShardFeed::Shard> ShardFeed::takeNext() {
    std::optional<Shard> taken;
    {
        const std::lock_guard lock(mutex_);
        if (!ready_)
            return std::nullopt;
        taken = std::exchange(ready_, std::nullopt);
        fetchAfter_ = taken->cursor;
        inUse_ = {taken->cursor.sha256};
    }
    wake_.notify_all();
    return taken;
}

QString ShardFeed::record(const DataCursor& cursor) const {
    if (options_.cursorPath.isEmpty())
        return {};
    return cursor.save(options_.cursorPath, options_.runId, options_.peerId);
}

void ShardFeed::run() {
    const std::vector<run::DataShard>& shards = options_.shards;
    std::optional<fetch::ShardCache> cache;
    try {
        cache.emplace(options_.sources.cacheDir, options_.runId, options_.sources.cacheCapBytes);
    } catch (const std::exception& e) {
        note(QStringLiteral("the shard cache cannot be opened, no shard after the first will be fetched: %1")
                 .arg(QString::fromUtf8(e.what())));
        return;
    }
    fetch::ShardDownloader downloader(*cache, options_.sources.transfer);
    for (;;) {
        DataCursor candidate;
        QSet<QString> keep = options_.keep;
        {
            std::unique_lock lock(mutex_);
            // One ahead: wait until the shard fetched last is taken.
            wake_.wait(lock, [&] { return stopping_ || !ready_; });
            if (stopping_)
                return;
            candidate = fetchAfter_.next(shards, options_.runId, options_.peerId);
            keep.unite(inUse_);
        }
        // Look for a shard that some place delivers, at most one pass of them from here.
        std::optional<Shard> found;
        for (std::size_t tried = 0; tried < shards.size() && !found && !stopping_; ++tried) {
            const run::DataShard& shard = shards[candidate.shardIndex(shards)];
            try {
                std::optional<QString> path =
                    run::ShardVerifier::findInFolder(shard, options_.sources.dataDir);
                if (!path) {
                    const fetch::DownloadReport report =
                        downloader.fetch(shard, options_.sources.mirrors, keep, {}, &stopping_);
                    for (const fetch::PlaceFailure& failure : report.failures)
                        note(QStringLiteral("%1: %2").arg(failure.url, failure.reason));
                    note(QStringLiteral("next shard ready: %1 (pass %2, %3 of %4), from %5")
                             .arg(shard.name())
                             .arg(candidate.pass)
                             .arg(candidate.position + 1)
                             .arg(shards.size())
                             .arg(report.place));
                    path = report.path;
                }
                found = Shard{*path, candidate};
            } catch (const fetch::DownloadFailed& e) {
                note(QString::fromUtf8(e.what()));
                if (e.diskFull)
                    break; // another shard would not fit either: wait, the volunteer may free space
                candidate = candidate.next(shards, options_.runId, options_.peerId);
            } catch (const std::exception& e) {
                if (stopping_)
                    return;
                note(QStringLiteral("%1: %2").arg(shard.name(), QString::fromUtf8(e.what())));
                candidate = candidate.next(shards, options_.runId, options_.peerId);
            }
        }
        std::unique_lock lock(mutex_);
        if (found) {
            ready_ = std::move(found);
            continue;
        }
        // Nothing could be fetched: train on what is here (the current shard again) and try later.
        wake_.wait_for(lock, options_.retryPause, [&] { return bool(stopping_); });
        if (stopping_)
            return;
    }
}

} // namespace sahaj::engine
