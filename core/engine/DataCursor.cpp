#include "core/engine/DataCursor.h"

#include "core/run/ShardOrder.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <stdexcept>

namespace sahaj::engine {

namespace {

constexpr const char* kFormat = "sahaj-data-cursor/1";
// A cursor file is a few hundred bytes; anything much larger is not one.
constexpr qint64 kMaxFileBytes = 64 * 1024;

} // namespace

QString DataCursor::pathIn(const QString& folder, const QString& runId) {
    // A run id may hold any character: the file is named by its hash.
    const QByteArray digest = QCryptographicHash::hash(runId.toUtf8(), QCryptographicHash::Sha256).toHex();
    return QDir(folder).filePath(
        QStringLiteral("data-cursor-%1.json").arg(QString::fromLatin1(digest.left(16))));
}

DataCursor DataCursor::at(const std::vector<run::DataShard>& shards, const QString& runId,
                          const QString& peerId, std::uint64_t pass, std::size_t position) {
    if (shards.empty() || position >= shards.size())
        throw std::invalid_argument("a data cursor needs a position among the run's shards");
    DataCursor cursor;
    cursor.pass = pass;
    cursor.position = position;
    cursor.sha256 = shards[run::ShardOrder::forPeer(shards, runId, peerId, pass)[position]].sha256;
    return cursor;
}

DataCursor DataCursor::next(const std::vector<run::DataShard>& shards, const QString& runId,
                            const QString& peerId) const {
    return position + 1 < shards.size() ? at(shards, runId, peerId, pass, position + 1)
                                        : at(shards, runId, peerId, pass + 1, 0);
}

std::size_t DataCursor::shardIndex(const std::vector<run::DataShard>& shards) const {
    for (std::size_t i = 0; i < shards.size(); ++i)
        if (shards[i].sha256 == sha256)
            return i;
    throw std::invalid_argument("the data cursor names a shard the run does not have");
}

QString DataCursor::save(const QString& path, const QString& runId, const QString& peerId) const {
    const QJsonObject json{{"format", kFormat},
                           {"run", runId},
                           {"peer", peerId},
                           {"pass", qint64(pass)},
                           {"position", qint64(position)},
                           {"sha256", sha256},
                           // As text: a JSON number holds 53 bits exactly, a seed has 64.
                           {"seed", QString::number(seed)},
                           {"stream", stream.toJson()}};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0 || !file.commit())
        return QStringLiteral("the data cursor %1 could not be saved: %2").arg(path, file.errorString());
    return {};
}

std::optional<DataCursor> DataCursor::load(const QString& path, const std::vector<run::DataShard>& shards,
                                           const QString& runId, const QString& peerId, QString* problem) {
    const auto refuse = [&](const QString& why) -> std::optional<DataCursor> {
        if (problem)
            *problem =
                QStringLiteral("the data cursor %1 %2: starting from this peer's first shard").arg(path, why);
        return std::nullopt;
    };
    QFile file(path);
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("cannot be read (%1)").arg(file.errorString()));
    if (file.size() > kMaxFileBytes)
        return refuse(QStringLiteral("is too large to be one"));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    if (json["format"].toString() != QLatin1String(kFormat))
        return refuse(QStringLiteral("is not a data cursor"));
    if (json["run"].toString() != runId || json["peer"].toString() != peerId)
        return std::nullopt; // another run's or another identity's: not a problem, just not ours
    const qint64 pass = json["pass"].toInteger(-1);
    const qint64 position = json["position"].toInteger(-1);
    if (pass < 0 || position < 0 || std::size_t(position) >= shards.size())
        return refuse(QStringLiteral("names no place among the run's %1 shards").arg(shards.size()));
    DataCursor cursor = at(shards, runId, peerId, std::uint64_t(pass), std::size_t(position));
    if (json["sha256"].toString() != cursor.sha256)
        return refuse(QStringLiteral("names another shard than the run's order has there"));
    bool seedOk = false;
    cursor.seed = json["seed"].toString().toULongLong(&seedOk);
    if (!seedOk)
        return refuse(QStringLiteral("has no seed"));
    try {
        cursor.stream = text::StreamPosition::fromJson(json["stream"].toObject());
    } catch (const std::runtime_error& e) {
        return refuse(QString::fromUtf8(e.what()));
    }
    return cursor;
}

} // namespace sahaj::engine
