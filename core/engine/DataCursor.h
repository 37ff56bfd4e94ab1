#pragma once

#include "core/run/DataShard.h"
#include "core/text/StreamPosition.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace sahaj::engine {

// Where a volunteer stands in its own stream of a run's shards: the pass over them, the place in that
// pass's order (run::ShardOrder), the shard there, and how far the training stream got inside it. Saved
// in the volunteer's folder as it trains, so that a restart goes on where it stopped, not from the
// first shard again.
struct DataCursor {
    std::uint64_t pass = 0;
    std::size_t position = 0; // index into ShardOrder::forPeer(shards, run, peer, pass)
    QString sha256;           // the shard at that position (a check when the cursor is read back)
    // The seed of the training stream over this shard (0: not chosen yet), kept so that a restart
    // continues the same shuffle at `stream`.
    std::uint64_t seed = 0;
    text::StreamPosition stream;

    // The file a volunteer keeps its cursor of run `runId` in, inside its folder.
    static QString pathIn(const QString& folder, const QString& runId);

    // The shard after this one: the next position, or the first of the next pass.
    DataCursor next(const std::vector<run::DataShard>& shards, const QString& runId,
                    const QString& peerId) const;
    // The cursor at `position` of `pass`, at the start of its shard.
    static DataCursor at(const std::vector<run::DataShard>& shards, const QString& runId,
                         const QString& peerId, std::uint64_t pass, std::size_t position);
    // The index into `shards` of the cursor's shard.
    std::size_t shardIndex(const std::vector<run::DataShard>& shards) const;

    // Writes the cursor for `runId` and `peerId` to `path` atomically (a crash leaves the old one).
    // Returns the error, empty on success: a cursor that could not be saved costs a repeat, not the run.
    QString save(const QString& path, const QString& runId, const QString& peerId) const;
    // The cursor saved at `path` for this run and peer, when it is there and still names a shard of this
    // manifest at its place; nullopt (with the reason in `problem`, empty when there was no file) otherwise.
    static std::optional<DataCursor> load(const QString& path, const std::vector<run::DataShard>& shards,
                                          const QString& runId, const QString& peerId,
                                          QString* problem = nullptr);
};

} // namespace sahaj::engine
