#pragma once

#include <QString>
#include <QStringList>

namespace sahaj::run {

// One piece of a run's training data, as the run manifest lists it: the same bytes at one or more
// places (mirrors, tried in order), known by their size and SHA-256 so that a copy from any of them can be
// checked before it is trained on.
struct DataShard {
    // file:///absolute/path, https://host/path, or http:// on a loopback or private address
    // (ManifestSyntax::isShardUrl). At least one; the first is the preferred place.
    QStringList urls;
    // SHA-256 of the file's bytes: 64 lowercase hexadecimal digits.
    QString sha256;
    qint64 bytes = 0;
    // How often the shard is drawn relative to the others (run::ShardOrder): mixing corpora as sahajBERT
    // mixed Wikipedia and OSCAR (0.23 / 0.77) gives each corpus's shards its share. In (0, 1000]; 1 when
    // the manifest gives none.
    double weight = 1.0;

    // How messages name the shard: its first URL.
    QString name() const { return urls.isEmpty() ? sha256 : urls.front(); }

    bool operator==(const DataShard&) const = default;
};

} // namespace sahaj::run
