#pragma once

#include "core/run/DataShard.h"

#include <QLockFile>
#include <QSet>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>

namespace sahaj::fetch {

// The downloaded shards of every run on this machine, in one folder with a cap on its size:
// ROOT/RUN_ID/SHA256 for a shard whose bytes were checked, ROOT/RUN_ID/SHA256.part for one being
// downloaded (kept across restarts, so a download resumes). A file gets its final name only after its
// size and SHA-256 matched and it reached the disk, so a crash never leaves a half-written shard under a
// shard's name; a shard is hashed again before its first use in each process, so a file damaged on disk
// is found before training. Making room evicts the least recently used shards (a file's modification time
// is its last use) of any run, never one in use. One process uses a cache at a time (a lock file).
class ShardCache {
public:
    // Throws std::runtime_error when the folder cannot be made or another process holds it.
    ShardCache(const QString& root, const QString& runId, std::int64_t capBytes);
    ~ShardCache();
    ShardCache(const ShardCache&) = delete;
    ShardCache& operator=(const ShardCache&) = delete;

    QString runDir() const { return runDir_; }
    std::int64_t capBytes() const { return capBytes_; }

    // Removes what cannot be a shard of this cache (stray names, temporary files) and what fails its
    // check, and says what went, one line each. Called once at start.
    QStringList scan(const std::vector<run::DataShard>& runShards);

    // The shard's checked file, its last use now; nullopt when it is not here. A file that is here but
    // does not match is removed (with the reason in *problem) and answers nullopt.
    std::optional<QString> find(const run::DataShard& shard, QString* problem = nullptr);

    QString partialPath(const run::DataShard& shard) const;
    QString completePath(const run::DataShard& shard) const;

    // Makes room for `bytes` more on the disk and under the cap, evicting least recently used shards that
    // are not in `keep` (SHA-256s). Throws std::runtime_error saying what is missing when even then they
    // do not fit: the cap is smaller than the shard, or the disk is full.
    void reserve(std::int64_t bytes, const QSet<QString>& keep);

    // Gives a fully downloaded and checked partial file its shard's name, durably.
    void commit(const run::DataShard& shard);

    // Bytes of every file under the root (every run, partial files included).
    std::int64_t usedBytes() const;

private:
    QString root_;
    QString runDir_;
    std::int64_t capBytes_;
    std::unique_ptr<QLockFile> lock_;
    QSet<QString> checked_; // shards hashed in this process
};

} // namespace sahaj::fetch
