#pragma once

#include "core/run/RunManifest.h"

#include <QString>

namespace sahaj::engine {

// The run's first data shard on this machine: the manifest's file, or one of the same name in `dataDir`.
// Its size and sha256 must match the manifest's, or the peer would train on other data than the run's.
class LocalDataShard {
public:
    // The shard's absolute path. Throws std::runtime_error saying what is missing or does not match.
    static QString find(const run::RunManifest& manifest, const QString& dataDir);
};

} // namespace sahaj::engine
