#pragma once

#include "core/run/DataShard.h"

#include <QString>

namespace sahaj::run {

// The tokenizer.json every peer of a run must use. Exactly one of `path` (an absolute local path) and `url`
// (a remote URL, downloaded like a shard) is set; the hash pins the content wherever the file comes from.
struct TokenizerReference {
    QString path;
    QString url;
    // SHA-256 of the file's bytes: 64 lowercase hexadecimal digits.
    QString sha256;
    // The file's size, with `url` (a download is cut off there); 0 with `path`.
    qint64 bytes = 0;

    // The download of a `url` tokenizer, in the shape the downloader takes.
    DataShard asDownload() const { return DataShard{{url}, sha256, bytes}; }

    bool operator==(const TokenizerReference&) const = default;
};

} // namespace sahaj::run
