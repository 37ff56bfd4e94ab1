#pragma once

#include "core/engine/DataCursor.h"
#include "core/engine/DataPreparation.h"
#include "core/run/DataShard.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace sahaj::engine {

// A volunteer's supply of shards after the first: a thread of its own brings the next shard of the
// peer's order (DataCursor::next) into the cache while the training thread trains on the current one, so
// that training does not wait for data. A shard no place delivers is skipped (the log says why) and the
// one after it is fetched; when a whole pass of them fails, the thread tries again after a pause. One
// shard is fetched ahead, never more: the cache holds the current shard, the next, and the tokenizer
// (never evicted while in use), whatever its cap.
//
// The training thread takes the next shard when it has consumed the current one and records how far it
// got inside it; the feed saves that cursor, so that a restart goes on where it stopped.
class ShardFeed {
public:
    struct Options {
        std::vector<run::DataShard> shards;
        QString runId;
        QString peerId;
        DataSources sources; // the cache, its cap, the transfer settings and the mirrors
        QSet<QString> keep;  // files the cache must keep besides the shards in use (the tokenizer)
        QString cursorPath;  // where the cursor is saved
        // Waited after a pass in which no shard could be fetched.
        std::chrono::milliseconds retryPause{30000};
    };

    struct Shard {
        QString path;
        DataCursor cursor;
    };

    // `current`: the shard the training thread starts on (DataPreparation's). Starts the thread, which
    // fetches the shard after it at once.
    ShardFeed(Options options, const DataCursor& current);

    // The feed after `prepared`'s shard, for `manifest`'s shards, keeping the tokenizer; null for a run
    // of one shard.
    static std::shared_ptr<ShardFeed> after(const run::RunManifest& manifest, const QString& peerId,
                                            const DataSources& sources, const PreparedData& prepared);
    // Stops the thread: a download under way is cancelled (its partial file stays for next time).
    ~ShardFeed();
    ShardFeed(const ShardFeed&) = delete;
    ShardFeed& operator=(const ShardFeed&) = delete;

    // The next shard, once it is in the cache and verified, which becomes the current one (and the thread
    // fetches the one after it); nullopt while it is not here yet. Never blocks on the network.
    std::optional<Shard> takeNext();
    // Where the training thread is (the current shard, its seed, how far the stream got in it): saved
    // to the cursor file. Returns the error when it could not be saved, empty otherwise.
    QString record(const DataCursor& cursor) const;
    // Lines for the log since the last call (what was fetched, from where; what failed and why).
    QStringList takeMessages();

private:
    void run();
    void note(const QString& line);

    Options options_;
    std::atomic<bool> stopping_{false};

    std::mutex mutex_;
    std::condition_variable wake_;
    DataCursor fetchAfter_;      // the thread fetches the shard after this one
    std::optional<Shard> ready_; // fetched, waiting to be taken
    QSet<QString> inUse_;        // the current shard's hash: never evicted
    QStringList messages_;

    std::thread thread_;
};

} // namespace sahaj::engine
