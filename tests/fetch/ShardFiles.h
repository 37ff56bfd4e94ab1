#pragma once

// Shards for the cache and download tests: pseudo-random bytes (so that a flipped byte or a wrong range
// shows) and their manifest entry.

#include "core/run/DataShard.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QString>

#include <cstdint>

namespace sahaj::test {

inline QByteArray randomBytes(qsizetype size, std::uint32_t seed) {
    QByteArray bytes(size, Qt::Uninitialized);
    std::uint32_t x = seed * 2654435761u + 1;
    for (qsizetype i = 0; i < size; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        bytes[i] = char(x & 0xff);
    }
    return bytes;
}

inline run::DataShard shardOf(const QByteArray& bytes, const QStringList& urls) {
    return run::DataShard{
        urls, QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()),
        bytes.size()};
}

// Writes `bytes` to `path` (replacing it); a failure ends the test run.
inline void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

inline QByteArray readBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace sahaj::test
