#pragma once

#include "core/run/DataShard.h"

#include <QString>

#include <optional>

namespace sahaj::run {

// Ties a run manifest's data shards to files. Only local shards (file:// URLs) can be checked yet: an
// https shard is validated for its spelling when the manifest is read, and will be checked the same way
// once Sahaj downloads shards (it does not yet).
class ShardVerifier {
public:
    // The manifest entry for a local file: its file:// URL (percent-encoded), size and SHA-256, from one
    // read of the file. std::runtime_error when it cannot be read.
    static DataShard describe(const QString& path);
    // SHA-256 of a file as 64 lowercase hex digits, read in chunks so that memory stays bounded for shards
    // of any size. std::runtime_error when it cannot be read.
    static QString fileSha256Hex(const QString& path);
    // The local file a file:// URL names; nullopt for other schemes.
    static std::optional<QString> localFile(const QString& url);
    // True when a local shard was checked and matches (size, then hash); false for a remote shard, which
    // can only be checked after downloading. std::runtime_error, naming the shard and both values, when
    // the file is missing, unreadable or differs.
    static bool verify(const DataShard& shard);
};

} // namespace sahaj::run
