// The shard cache alone: what a start finds on disk (strays, damaged shards, partial files), the cap and
// least-recently-used eviction, and one process per cache.

#include "core/fetch/ShardCache.h"
#include "tests/common/TestFiles.h"
#include "tests/fetch/ShardFiles.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using sahaj::fetch::ShardCache;
using sahaj::run::DataShard;
using sahaj::test::errorOf;
using sahaj::test::randomBytes;
using sahaj::test::shardOf;
using sahaj::test::writeBytes;

namespace {

void setLastUse(const QString& path, qint64 secondsAgo) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.setFileTime(QDateTime::currentDateTimeUtc().addSecs(-secondsAgo),
                             QFileDevice::FileModificationTime));
}

} // namespace

class ShardCacheTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aStartRemovesWhatIsNotAGoodShard() {
        QTemporaryDir root;
        const QByteArray a = randomBytes(4096, 1), b = randomBytes(5000, 2), c = randomBytes(100, 3);
        const DataShard shardA = shardOf(a, {"https://example.org/a"});
        const DataShard shardB = shardOf(b, {"https://example.org/b"});
        const DataShard shardC = shardOf(c, {"https://example.org/c"});
        {
            ShardCache cache(root.path(), "run-1", 1 << 20);
            writeBytes(cache.completePath(shardA), a);
            // A shard whose file was damaged on disk: one flipped byte.
            QByteArray damaged = b;
            damaged[100] = char(damaged[100] ^ 1);
            writeBytes(cache.completePath(shardB), damaged);
            writeBytes(cache.partialPath(shardC), c.left(50)); // an interrupted download: kept to resume
            writeBytes(QDir(cache.runDir()).filePath("notes.txt"), "stray");
            writeBytes(QDir(cache.runDir()).filePath(QString(64, 'e')), "a shard of no run");
        }
        ShardCache cache(root.path(), "run-1", 1 << 20);
        const QStringList removed = cache.scan({shardA, shardB, shardC});
        QCOMPARE(removed.size(), 3);
        QVERIFY2(removed.filter("notes.txt").size() == 1 &&
                     removed.filter("not a shard of this cache").size() == 1,
                 qPrintable(removed.join('\n')));
        QVERIFY2(removed.filter("not a shard of this run").size() == 1, qPrintable(removed.join('\n')));
        QVERIFY2(removed.filter(shardB.sha256).filter("SHA-256").size() == 1, qPrintable(removed.join('\n')));
        QCOMPARE(cache.find(shardA), std::optional<QString>(cache.completePath(shardA)));
        QVERIFY(!cache.find(shardB));
        QVERIFY(QFile::exists(cache.partialPath(shardC)));

        // A partial file longer than its shard cannot be resumed.
        writeBytes(cache.partialPath(shardC), c + "more");
        QVERIFY(cache.scan({shardA, shardB, shardC}).filter("longer than the shard").size() == 1);
        QVERIFY(!QFile::exists(cache.partialPath(shardC)));
    }

    void makingRoomEvictsTheLeastRecentlyUsed() {
        QTemporaryDir root;
        ShardCache cache(root.path(), "run-1", 10000);
        std::vector<DataShard> shards;
        for (int i = 0; i < 3; ++i) {
            const QByteArray bytes = randomBytes(3000, 10 + i);
            shards.push_back(shardOf(bytes, {QStringLiteral("https://example.org/%1").arg(i)}));
            writeBytes(cache.partialPath(shards.back()), bytes);
            cache.commit(shards.back());
        }
        setLastUse(cache.completePath(shards[0]), 300);
        setLastUse(cache.completePath(shards[1]), 200);
        setLastUse(cache.completePath(shards[2]), 100);
        QVERIFY(cache.usedBytes() >= 9000);

        // 3000 more: one shard must go; the oldest is kept because it is in use, so the next goes.
        cache.reserve(3000, {shards[0].sha256});
        QVERIFY(QFile::exists(cache.completePath(shards[0])));
        QVERIFY(!QFile::exists(cache.completePath(shards[1])));
        QVERIFY(QFile::exists(cache.completePath(shards[2])));

        // Using a shard makes it the most recent.
        QVERIFY(cache.find(shards[0]));
        cache.reserve(6000, {});
        QVERIFY(QFile::exists(cache.completePath(shards[0])));
        QVERIFY(!QFile::exists(cache.completePath(shards[2])));

        QString message = errorOf([&] { cache.reserve(20000, {}); });
        QVERIFY2(message.contains("does not fit in the shard cache's cap"), qPrintable(message));
        message = errorOf([&] { cache.reserve(9000, {shards[0].sha256}); });
        QVERIFY2(message.contains("is full with shards in use"), qPrintable(message));
    }

    void theCapCountsEveryRun() {
        QTemporaryDir root;
        const QByteArray old = randomBytes(6000, 20);
        const DataShard oldShard = shardOf(old, {"https://example.org/old"});
        {
            ShardCache other(root.path(), "other-run", 10000);
            writeBytes(other.partialPath(oldShard), old);
            other.commit(oldShard);
        }
        ShardCache cache(root.path(), "run-1", 10000);
        cache.reserve(6000, {});
        QVERIFY(!QFile::exists(QDir(root.path()).filePath("other-run/" + oldShard.sha256)));
    }

    void oneProcessAtATime() {
        QTemporaryDir root;
        ShardCache cache(root.path(), "run-1", 1000);
        const QString message = errorOf([&] { ShardCache second(root.path(), "run-2", 1000); });
        QVERIFY2(
            message.contains("is in use by process " + QString::number(QCoreApplication::applicationPid())),
            qPrintable(message));
        QVERIFY(errorOf([&] { ShardCache bad(root.path(), "Bad Run", 1000); }).contains("run id"));
    }
};

QTEST_GUILESS_MAIN(ShardCacheTest)
#include "tst_shard_cache.moc"
