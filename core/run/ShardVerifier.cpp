#include "core/run/ShardVerifier.h"

#include "core/security/Sha256.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUrl>

#include <stdexcept>

namespace sahaj::run {

namespace {

struct FileDigest {
    QString sha256;
    qint64 bytes = 0;
};

[[noreturn]] void failShard(const QString& message) {
    throw std::runtime_error(message.toStdString());
}

FileDigest digest(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists())
        failShard(QStringLiteral("'%1' does not exist").arg(path));
    if (!info.isFile())
        failShard(QStringLiteral("'%1' is not a file").arg(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        failShard(QStringLiteral("cannot open '%1': %2").arg(path, file.errorString()));
    constexpr qint64 kChunk = 1 << 20;
    QByteArray buffer(kChunk, Qt::Uninitialized);
    security::Sha256 hash;
    FileDigest result;
    for (;;) {
        const qint64 read = file.read(buffer.data(), kChunk);
        if (read < 0)
            failShard(QStringLiteral("cannot read '%1': %2").arg(path, file.errorString()));
        if (read == 0)
            break;
        hash.add(QByteArrayView(buffer.constData(), read));
        result.bytes += read;
    }
    result.sha256 = hash.hex();
    return result;
}

} // namespace

DataShard ShardVerifier::describe(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const FileDigest fileDigest = digest(absolute);
    return DataShard{
        {QUrl::fromLocalFile(absolute).toString(QUrl::FullyEncoded)}, fileDigest.sha256, fileDigest.bytes};
}

QString ShardVerifier::fileSha256Hex(const QString& path) {
    return digest(path).sha256;
}

std::optional<QString> ShardVerifier::localFile(const QString& url) {
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid() || !parsed.isLocalFile())
        return std::nullopt;
    return parsed.toLocalFile();
}

std::optional<QString> ShardVerifier::localFile(const DataShard& shard) {
    for (const QString& url : shard.urls)
        if (std::optional<QString> path = localFile(url))
            return path;
    return std::nullopt;
}

std::optional<QString> ShardVerifier::findInFolder(const DataShard& shard, const QString& folder) {
    if (folder.isEmpty())
        return std::nullopt;
    for (const QString& url : shard.urls) {
        const QString name = QFileInfo(QUrl(url).path()).fileName();
        const QString path = QDir(folder).filePath(name);
        if (!name.isEmpty() && QFileInfo(path).isFile()) {
            verifyFile(shard, path);
            return QFileInfo(path).absoluteFilePath();
        }
    }
    return std::nullopt;
}

void ShardVerifier::verifyFile(const DataShard& shard, const QString& path) {
    const QFileInfo info(path);
    if (!info.exists())
        failShard(QStringLiteral("shard %1: the file '%2' is missing").arg(shard.name(), path));
    // The size is free to check and catches a truncated or swapped file before hashing all of it.
    if (info.isFile() && info.size() != shard.bytes)
        failShard(QStringLiteral("shard %1: '%2' has %3 bytes, the run manifest says %4")
                      .arg(shard.name(), path)
                      .arg(info.size())
                      .arg(shard.bytes));
    FileDigest actual;
    try {
        actual = digest(path);
    } catch (const std::runtime_error& e) {
        failShard(QStringLiteral("shard %1: %2").arg(shard.name(), QString::fromUtf8(e.what())));
    }
    if (actual.sha256 != shard.sha256)
        failShard(
            QStringLiteral("shard %1: '%2' has SHA-256 %3, the run manifest says %4 (the file changed, or "
                           "it is not this run's shard)")
                .arg(shard.name(), path, actual.sha256, shard.sha256));
}

bool ShardVerifier::verify(const DataShard& shard) {
    const std::optional<QString> path = localFile(shard);
    if (!path)
        return false;
    verifyFile(shard, *path);
    return true;
}

} // namespace sahaj::run
