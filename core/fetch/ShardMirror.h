#pragma once

#include "core/fetch/FetchResult.h"
#include "core/fetch/HttpFetch.h"
#include "core/fetch/TransferSettings.h"
#include "core/run/DataShard.h"

#include <QString>

#include <atomic>
#include <cstdint>

namespace sahaj::fetch {

// A place that serves a run's files by their SHA-256 rather than at a URL of the manifest: the
// coordinator's mirror (admission::CoordinatorMirror), tried after the manifest's places. It streams the
// bytes as HttpFetch::get does, and the downloader checks them the same way: a mirror is no more trusted
// than a web server.
class ShardMirror {
public:
    virtual ~ShardMirror() = default;

    // How messages name this place ("the coordinator's mirror at tcp://...").
    virtual QString name() const = 0;

    // Streams bytes [offset, shard.bytes) of `shard` to `sink` in order, with TransferSettings' deadlines
    // and rate cap, until they are all there, the mirror fails or `cancel` is set. Never more than the
    // shard's size. Blocking, on a downloading thread.
    virtual FetchResult fetch(const run::DataShard& shard, std::int64_t offset,
                              const TransferSettings& settings, const HttpFetch::Sink& sink,
                              const HttpFetch::Progress& progress, const std::atomic<bool>* cancel) = 0;
};

} // namespace sahaj::fetch
