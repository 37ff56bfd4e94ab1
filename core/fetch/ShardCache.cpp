#include "core/fetch/ShardCache.h"

#include "core/run/ManifestSyntax.h"
#include "core/run/ShardVerifier.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStorageInfo>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace sahaj::fetch {

namespace {

constexpr auto kPartSuffix = ".part";
// Room left on the disk beyond the shards, so that the checkpoints and the ledger can still be written.
constexpr std::int64_t kDiskMargin = 256ll << 20;

[[noreturn]] void fail(const QString& message) {
    throw std::runtime_error(message.toStdString());
}

QString mib(std::int64_t bytes) {
    return QString::number(double(bytes) / double(1 << 20), 'f', 1) + QStringLiteral(" MiB");
}

void touch(const QString& path) {
    QFile file(path);
    if (file.open(QIODevice::ReadWrite))
        file.setFileTime(QDateTime::currentDateTimeUtc(), QFileDevice::FileModificationTime);
}

void syncPath(const QString& path) {
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

struct CachedFile {
    QString path;
    QString sha256;
    std::int64_t bytes;
    QDateTime lastUse;
};

} // namespace

ShardCache::ShardCache(const QString& root, const QString& runId, std::int64_t capBytes)
    : root_(QDir(root).absolutePath()), runDir_(QDir(root_).filePath(runId)), capBytes_(capBytes) {
    if (!run::ManifestSyntax::isRunId(runId))
        fail(QStringLiteral("the shard cache needs a run id (%1), got \"%2\"")
                 .arg(run::ManifestSyntax::runIdRule(), runId));
    if (capBytes <= 0)
        fail(QStringLiteral("the shard cache's cap must be above 0 bytes"));
    if (!QDir().mkpath(runDir_))
        fail(QStringLiteral("the shard cache folder %1 cannot be made").arg(runDir_));
    lock_ = std::make_unique<QLockFile>(QDir(root_).filePath(QStringLiteral(".lock")));
    lock_->setStaleLockTime(0); // a lock is stale only when its process is gone
    if (!lock_->tryLock(0)) {
        qint64 pid = 0;
        QString host, application;
        lock_->getLockInfo(&pid, &host, &application);
        fail(QStringLiteral("the shard cache %1 is in use by process %2 (%3): give each volunteer its own")
                 .arg(root_)
                 .arg(pid)
                 .arg(application));
    }
}

ShardCache::~ShardCache() = default;

QString ShardCache::partialPath(const run::DataShard& shard) const {
    return QDir(runDir_).filePath(shard.sha256 + QLatin1String(kPartSuffix));
}

QString ShardCache::completePath(const run::DataShard& shard) const {
    return QDir(runDir_).filePath(shard.sha256);
}

QStringList ShardCache::scan(const std::vector<run::DataShard>& runShards) {
    QStringList removed;
    QSet<QString> known;
    for (const run::DataShard& shard : runShards)
        known.insert(shard.sha256);
    const QFileInfoList entries =
        QDir(runDir_).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden);
    for (const QFileInfo& entry : entries) {
        const QString name = entry.fileName();
        const QString hash = name.endsWith(QLatin1String(kPartSuffix)) ? name.chopped(5) : name;
        const bool shardName = entry.isFile() && run::ManifestSyntax::isSha256Hex(hash);
        if (!shardName) {
            (entry.isDir() ? QDir(entry.filePath()).removeRecursively() : QFile::remove(entry.filePath()));
            removed.append(QStringLiteral("%1: not a shard of this cache").arg(entry.filePath()));
            continue;
        }
        if (!known.contains(hash)) {
            QFile::remove(entry.filePath());
            removed.append(QStringLiteral("%1: not a shard of this run").arg(entry.filePath()));
            continue;
        }
    }
    // Complete files are checked now: a shard damaged on disk (or cut short by a crash of the disk
    // itself) must not wait for its turn to be found.
    for (const run::DataShard& shard : runShards) {
        QString problem;
        if (QFileInfo::exists(completePath(shard)) && !find(shard, &problem))
            removed.append(problem);
        const QFileInfo part(partialPath(shard));
        if (part.exists() && part.size() > shard.bytes) {
            QFile::remove(part.filePath());
            removed.append(QStringLiteral("%1: longer than the shard").arg(part.filePath()));
        }
    }
    return removed;
}

std::optional<QString> ShardCache::find(const run::DataShard& shard, QString* problem) {
    const QString path = completePath(shard);
    if (!QFileInfo::exists(path))
        return std::nullopt;
    if (!checked_.contains(shard.sha256)) {
        try {
            run::ShardVerifier::verifyFile(shard, path);
        } catch (const std::runtime_error& e) {
            QFile::remove(path);
            if (problem)
                *problem =
                    QStringLiteral("%1: removed from the cache: %2").arg(path, QString::fromUtf8(e.what()));
            return std::nullopt;
        }
        checked_.insert(shard.sha256);
    }
    touch(path);
    return path;
}

std::int64_t ShardCache::usedBytes() const {
    std::int64_t used = 0;
    QDirIterator files(root_, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        files.next();
        used += files.fileInfo().size();
    }
    return used;
}

void ShardCache::reserve(std::int64_t bytes, const QSet<QString>& keep) {
    if (bytes > capBytes_)
        fail(QStringLiteral("a shard of %1 does not fit in the shard cache's cap of %2: raise the cap")
                 .arg(mib(bytes), mib(capBytes_)));
    std::vector<CachedFile> evictable;
    QDirIterator files(root_, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        files.next();
        const QFileInfo info = files.fileInfo();
        if (run::ManifestSyntax::isSha256Hex(info.fileName()) && !keep.contains(info.fileName()))
            evictable.push_back({info.filePath(), info.fileName(), info.size(), info.lastModified()});
    }
    std::sort(evictable.begin(), evictable.end(),
              [](const CachedFile& a, const CachedFile& b) { return a.lastUse < b.lastUse; });
    std::int64_t used = usedBytes();
    auto freeOnDisk = [&] { return QStorageInfo(root_).bytesAvailable() - kDiskMargin; };
    for (const CachedFile& file : evictable) {
        if (used + bytes <= capBytes_ && bytes <= freeOnDisk())
            break;
        if (QFile::remove(file.path)) {
            used -= file.bytes;
            checked_.remove(file.sha256);
        }
    }
    if (used + bytes > capBytes_)
        fail(QStringLiteral(
                 "the shard cache's cap of %1 is full with shards in use (%2 used, %3 more needed): "
                 "raise the cap")
                 .arg(mib(capBytes_), mib(used), mib(bytes)));
    if (const std::int64_t free = freeOnDisk(); bytes > free)
        fail(QStringLiteral(
                 "the disk of %1 is full: %2 more needed for the next shard, %3 free (beyond %4 kept "
                 "for checkpoints)")
                 .arg(root_, mib(bytes), mib(std::max<std::int64_t>(free, 0)), mib(kDiskMargin)));
}

void ShardCache::commit(const run::DataShard& shard) {
    const QString from = partialPath(shard);
    const QString to = completePath(shard);
    syncPath(from);
    QFile::remove(to);
    if (!QFile::rename(from, to))
        fail(QStringLiteral("%1 cannot be renamed to %2").arg(from, to));
    syncPath(runDir_);
    checked_.insert(shard.sha256);
}

} // namespace sahaj::fetch
