#pragma once

#include "core/model/AlbertConfig.h"
#include "core/run/DataShard.h"
#include "core/run/TokenizerReference.h"
#include "core/run/TrainingSettings.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace sahaj::run {

// Everything that makes a collaboration one run: every volunteer trains the same model, with the same
// tokenizer, recipe and data, and meets the others through the same coordinators. The JSON layout is in
// docs/run-manifest.md. Reading is strict: unknown keys, wrong types and values out of range are refused
// with a message that names the field ("training.sequence_length must be ..."), as std::invalid_argument.
class RunManifest {
public:
    static constexpr const char* kFormat = "sahaj-run/1";

    QString runId;
    // Written as the full Hugging Face config object, so that the manifest stands alone; a built-in name
    // ("tiny", "small", "sahajbert") is accepted on read and expanded.
    model::AlbertConfig model;
    TokenizerReference tokenizer;
    TrainingSettings training;
    std::vector<DataShard> data;
    // HOST:PORT addresses of the DHT bootstrap peers and coordinator endpoints.
    QStringList coordinators;
    // The organiser's Ed25519 public key, 64 lowercase hex digits: who signs this manifest (JoinFile) and
    // the run's access tokens. Empty for an unsigned, local run (the JSON then has no "organiser" key).
    QString organiser;
    // The coordinator's token endpoint, where volunteers ask for access tokens: its CURVE public key (64
    // lowercase hex digits; a volunteer connects only to the holder of that key) and its TCP HOST:PORT
    // (empty: the first coordinator's host, at its port + 1). Both empty in an unsigned, local run.
    QString authCurveKey;
    QString authEndpoint;

    static RunManifest fromJson(const QJsonObject& json);
    // A manifest's bytes as they came (a file's content, a download): std::invalid_argument, naming
    // `origin` (a path or a URL), for more bytes than a manifest may have, invalid JSON or an invalid
    // manifest.
    static RunManifest fromBytes(const QByteArray& bytes, const QString& origin);
    // std::runtime_error for a file that cannot be read; fromBytes' errors, naming the file, otherwise.
    static RunManifest loadFile(const QString& path);
    // A `data` array on its own (what `sahaj-node shard` writes for run-init), in the manifest's form and
    // with its checks. Throws std::invalid_argument naming the field.
    static std::vector<DataShard> shardsFromJson(const QJsonArray& json);
    static QJsonArray shardsToJson(const std::vector<DataShard>& shards);
    // Both validate() first.
    QJsonObject toJson() const;
    // Atomic (QSaveFile): a crash leaves the old file or the new one. std::runtime_error on failure.
    void saveFile(const QString& path) const;

    // The bytes a run's identity and (later) the organiser's signature cover: toJson() as compact JSON —
    // no whitespace, keys sorted by their UTF-8 bytes at every level, strings in UTF-8 with only '"', '\\'
    // and control characters escaped, integers in decimal, other numbers in the shortest form that reads
    // back to the same double. It depends on the manifest's values only, never on the key order or the
    // layout of the file it came from.
    QByteArray canonicalBytes() const;
    // SHA-256 of canonicalBytes(), 64 lowercase hex digits: equal for two peers exactly when they would
    // train the same run.
    QString sha256Hex() const;

    // Throws std::invalid_argument naming the first field out of range.
    void validate() const;

    bool operator==(const RunManifest&) const = default;
};

} // namespace sahaj::run
