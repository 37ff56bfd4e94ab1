#pragma once

#include "core/run/DataShard.h"

#include <QString>

#include <optional>

namespace sahaj::run {

// Ties a run manifest's data shards to files: a shard's bytes are its size and SHA-256, wherever they came
// from (a file:// URL on this machine, or a download, which core/fetch checks the same way while it streams).
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
    // The file of the shard's first file:// URL; nullopt when it has none.
    static std::optional<QString> localFile(const DataShard& shard);
    // Checks that `path` holds the shard's bytes (size, then hash). std::runtime_error, naming the shard,
    // the file and both values, when it is missing, unreadable or differs.
    static void verifyFile(const DataShard& shard, const QString& path);
    // The shard's file in `folder`, copied there by hand or served from there, under the file name of one
    // of its URLs, once verifyFile passes; nullopt when no such name is there. Throws as verifyFile when
    // the file there differs.
    static std::optional<QString> findInFolder(const DataShard& shard, const QString& folder);
    // True when the shard has a local file and it matches; false when it has only remote places, which
    // are checked when they are downloaded. Throws as verifyFile when the local file differs.
    static bool verify(const DataShard& shard);
};

} // namespace sahaj::run
