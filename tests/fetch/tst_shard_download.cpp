// The downloader against a real nginx on loopback: a whole shard, a resumed one (a range request), each
// fault of a place (404, a flipped byte, more bytes than the manifest says, a stall, a server stopped
// mid-download) and a full disk. Every test starts with an empty cache.

#include "core/fetch/ShardDownloader.h"
#include "tests/common/NginxServer.h"
#include "tests/common/TestFiles.h"
#include "tests/fetch/ShardFiles.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include <atomic>
#include <thread>

using sahaj::fetch::DownloadFailed;
using sahaj::fetch::DownloadProgress;
using sahaj::fetch::DownloadReport;
using sahaj::fetch::ShardCache;
using sahaj::fetch::ShardDownloader;
using sahaj::fetch::TransferSettings;
using sahaj::run::DataShard;
using sahaj::test::NginxServer;
using sahaj::test::randomBytes;
using sahaj::test::readBytes;
using sahaj::test::shardOf;
using sahaj::test::writeBytes;

namespace {

TransferSettings quickSettings() {
    TransferSettings settings;
    settings.connectTimeout = std::chrono::milliseconds(3000);
    settings.stallTime = std::chrono::seconds(2);
    return settings;
}

QString failuresOf(const DownloadReport& report) {
    QStringList lines;
    for (const auto& failure : report.failures)
        lines << failure.url + ": " + failure.reason;
    return lines.join('\n');
}

} // namespace

class ShardDownloadTest : public QObject {
    Q_OBJECT

    QTemporaryDir served_;
    QTemporaryDir work_;
    std::unique_ptr<NginxServer> server_;
    QByteArray bytes_ = randomBytes(3 * 1024 * 1024 + 123, 7);

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(NginxServer::available(), qPrintable(NginxServer::missingReason()));
        writeBytes(QDir(served_.path()).filePath("shard-0.bin"), bytes_);
        server_ = std::make_unique<NginxServer>(served_.path(), work_.path());
        QString error;
        QVERIFY2(server_->start(&error), qPrintable(error));
    }

    void aShardIsDownloadedAndChecked() {
        QTemporaryDir cacheDir;
        ShardCache cache(cacheDir.path(), "run-1", 1ll << 30);
        const DataShard shard = shardOf(bytes_, {server_->url("shard-0.bin")});
        std::vector<DownloadProgress> seen;
        const DownloadReport report =
            ShardDownloader(cache, quickSettings()).fetch(shard, {}, {}, [&](const DownloadProgress& p) {
                seen.push_back(p);
            });
        QCOMPARE(report.path, cache.completePath(shard));
        QCOMPARE(readBytes(report.path), bytes_);
        QCOMPARE(report.place, shard.urls.front());
        QCOMPARE(report.bytesReceived, bytes_.size());
        QVERIFY2(report.failures.empty(), qPrintable(failuresOf(report)));
        QVERIFY(!seen.empty() && seen.back().finished && seen.back().done == bytes_.size());
        QVERIFY(!QFile::exists(cache.partialPath(shard)));

        // Asked again: from the cache, nothing transferred.
        const std::size_t requests = server_->accessEntries().size();
        const DownloadReport again = ShardDownloader(cache, quickSettings()).fetch(shard);
        QCOMPARE(again.place, QStringLiteral("cache"));
        QCOMPARE(server_->accessEntries().size(), requests);
    }

    void anInterruptedDownloadResumesWithARange() {
        QTemporaryDir cacheDir;
        ShardCache cache(cacheDir.path(), "run-1", 1ll << 30);
        const DataShard shard = shardOf(bytes_, {server_->url("shard-0.bin")});
        writeBytes(cache.partialPath(shard), bytes_.left(1 << 20));
        const DownloadReport report = ShardDownloader(cache, quickSettings()).fetch(shard);
        QCOMPARE(readBytes(report.path), bytes_);
        QCOMPARE(report.bytesResumed, 1 << 20);
        QCOMPARE(report.bytesReceived, bytes_.size() - (1 << 20));
        const auto entry = server_->accessEntries().back();
        QCOMPARE(entry.status, 206);
        QCOMPARE(entry.range, QStringLiteral("bytes=1048576-"));
    }

    void aMissingPlaceIsReportedAndTheNextTried() {
        QTemporaryDir cacheDir;
        ShardCache cache(cacheDir.path(), "run-1", 1ll << 30);
        const DataShard shard = shardOf(bytes_, {server_->url("gone.bin"), server_->url("shard-0.bin")});
        const DownloadReport report = ShardDownloader(cache, quickSettings()).fetch(shard);
        QCOMPARE(readBytes(report.path), bytes_);
        QCOMPARE(report.failures.size(), std::size_t(1));
        QCOMPARE(report.failures[0].url, server_->url("gone.bin"));
        QVERIFY2(report.failures[0].reason.contains("not found") && report.failures[0].reason.contains("404"),
                 qPrintable(failuresOf(report)));
    }

    void aFlippedByteIsRefused() {
        QByteArray flipped = bytes_;
        flipped[2000000] = char(flipped[2000000] ^ 0x10);
        writeBytes(QDir(served_.path()).filePath("flipped.bin"), flipped);
        QTemporaryDir cacheDir;
        ShardCache cache(cacheDir.path(), "run-1", 1ll << 30);
        const DataShard only = shardOf(bytes_, {server_->url("flipped.bin")});
        try {
            ShardDownloader(cache, quickSettings()).fetch(only);
            QFAIL("a shard with a flipped byte was accepted");
        } catch (const DownloadFailed& e) {
            QVERIFY2(QString(e.what()).contains("discarded") && QString(e.what()).contains(only.sha256),
                     e.what());
            QVERIFY(!e.diskFull);
        }
        QVERIFY(!QFile::exists(cache.completePath(only)));
        QVERIFY(!QFile::exists(cache.partialPath(only)));

        // With a good mirror after it, the good bytes arrive.
        const DataShard both = shardOf(bytes_, {server_->url("flipped.bin"), server_->url("shard-0.bin")});
        const DownloadReport report = ShardDownloader(cache, quickSettings()).fetch(both);
        QCOMPARE(readBytes(report.path), bytes_);
        QCOMPARE(report.failures.size(), std::size_t(1));
        QVERIFY(report.failures[0].reason.contains("SHA-256"));
    }

    void moreBytesThanTheManifestSaysAreCutOff() {
        writeBytes(QDir(served_.path()).filePath("longer.bin"), bytes_ + randomBytes(100000, 8));
        QTemporaryDir cacheDir;
        ShardCache cache(cacheDir.path(), "run-1", 1ll << 30);
        const DataShard shard = shardOf(bytes_, {server_->url("longer.bin")});
        const DownloadReport report = ShardDownloader(cache, quickSettings()).fetch(shard);
        QCOMPARE(readBytes(report.path), bytes_);
        QCOMPARE(report.bytesReceived, bytes_.size());
        QCOMPARE(report.failures.size(), std::size_t(1)); // the place is reported all the same
        QVERIFY2(report.failures[0].reason.contains("sent more than"), qPrintable(failuresOf(report)));

        // A longer file whose first bytes are not the shard's is refused.
        const DataShard other = shardOf(randomBytes(bytes_.size(), 9), {server_->url("longer.bin")});
        QVERIFY(sahaj::test::errorOf([&] {
                    ShardDownloader(cache, quickSettings()).fetch(other);
                }).contains("discarded"));
    }

    void aStalledServerIsLeftForTheNextPlace() {
        QTemporaryDir cacheDir;
        ShardCache cache(cacheDir.path(), "run-1", 1ll << 30);
        const DataShard shard =
            shardOf(bytes_, {server_->stallUrl("shard-0.bin"), server_->url("shard-0.bin")});
        const DownloadReport report = ShardDownloader(cache, quickSettings()).fetch(shard);
        QCOMPARE(readBytes(report.path), bytes_);
        QCOMPARE(report.failures.size(), std::size_t(1));
        QVERIFY2(report.failures[0].reason.contains("stalled"), qPrintable(failuresOf(report)));
    }

    void aServerStoppedMidDownloadIsResumedFromAnotherPlace() {
        QTemporaryDir otherServed, otherWork;
        writeBytes(QDir(otherServed.path()).filePath("shard-0.bin"), bytes_);
        NginxServer mirror(otherServed.path(), otherWork.path());
        QString error;
        QVERIFY2(mirror.start(&error), qPrintable(error));
        QTemporaryDir slowWork;
        NginxServer slow(served_.path(), slowWork.path());
        slow.setSlowRate(512 * 1024);
        QVERIFY2(slow.start(&error), qPrintable(error));

        QTemporaryDir cacheDir;
        ShardCache cache(cacheDir.path(), "run-1", 1ll << 30);
        const DataShard shard = shardOf(bytes_, {slow.slowUrl("shard-0.bin"), mirror.url("shard-0.bin")});
        std::atomic<std::int64_t> done{0};
        DownloadReport report;
        QString failure;
        std::thread downloading([&] {
            try {
                report = ShardDownloader(cache, quickSettings())
                             .fetch(shard, {}, {}, [&](const DownloadProgress& p) { done = p.done; });
            } catch (const std::exception& e) {
                failure = e.what();
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(done.load() >= (1 << 20), 20000);
        slow.stop();
        downloading.join();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(readBytes(report.path), bytes_);
        QCOMPARE(report.place, mirror.url("shard-0.bin"));
        QVERIFY(report.bytesResumed >= (1 << 20));
        QCOMPARE(report.failures.size(), std::size_t(1));
        const auto entry = mirror.accessEntries().back();
        QCOMPARE(entry.status, 206);
        QCOMPARE(entry.range, QStringLiteral("bytes=%1-").arg(report.bytesResumed));
    }

    void aFullDiskKeepsWhatItHas() {
        if (::geteuid() != 0)
            QSKIP("mounting a small file system needs root (CI runs as root)");
        QTemporaryDir mountPoint;
        // 8 MiB of room beyond the 256 MiB the cache leaves free for checkpoints.
        if (QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=264m", "tmpfs", mountPoint.path()}) != 0)
            QSKIP("this machine does not let root mount a tmpfs (no CAP_SYS_ADMIN)");
        const auto unmount = qScopeGuard([&] { QProcess::execute("umount", {mountPoint.path()}); });
        ShardCache cache(mountPoint.path(), "run-1", 1ll << 30);
        writeBytes(QDir(mountPoint.path()).filePath("filler"), randomBytes(6 << 20, 3));
        const DataShard shard = shardOf(bytes_, {server_->url("shard-0.bin")});
        try {
            ShardDownloader(cache, quickSettings()).fetch(shard);
            QFAIL("a shard was downloaded onto a full disk");
        } catch (const DownloadFailed& e) {
            QVERIFY2(e.diskFull && QString(e.what()).contains("is full"), e.what());
        }
        QVERIFY(!QFile::exists(cache.completePath(shard)));
        QVERIFY(QFile::remove(QDir(mountPoint.path()).filePath("filler")));
        const DownloadReport report = ShardDownloader(cache, quickSettings()).fetch(shard);
        QCOMPARE(readBytes(report.path), bytes_);
    }
};

QTEST_GUILESS_MAIN(ShardDownloadTest)
#include "tst_shard_download.moc"
