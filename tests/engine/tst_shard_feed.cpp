// A volunteer's shards after the first (engine::ShardFeed) from a real nginx on loopback: the feed
// brings the next shard of the peer's order while the current one is in use, one ahead, through the
// passes; a shard whose served bytes are wrong is skipped with the reason logged; the cursor it saves is
// read back where the volunteer stopped, and a cursor of another run, a garbage file or one naming
// another shard than the order has there are not.
#include "core/engine/DataCursor.h"
#include "core/engine/ShardFeed.h"
#include "core/run/ShardOrder.h"
#include "tests/common/NginxServer.h"
#include "tests/fetch/ShardFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace sahaj;
using namespace sahaj::engine;
using namespace sahaj::test;

namespace {

const QString kRun = QStringLiteral("feed-test");
const QString kPeer = QStringLiteral("peer-a");

} // namespace

class TestShardFeed : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<NginxServer> nginx_;
    std::vector<run::DataShard> shards_;
    std::vector<QByteArray> bytes_;

    ShardFeed::Options options(const QString& cache) const {
        ShardFeed::Options o;
        o.shards = shards_;
        o.runId = kRun;
        o.peerId = kPeer;
        o.sources.cacheDir = dir_.filePath(cache);
        o.sources.cacheCapBytes = 1ll << 30;
        o.sources.transfer.connectTimeout = std::chrono::milliseconds(3000);
        o.sources.transfer.stallTime = std::chrono::seconds(3);
        o.cursorPath = dir_.filePath(cache + ".cursor.json");
        o.retryPause = std::chrono::milliseconds(200);
        return o;
    }

    static std::optional<ShardFeed::Shard> waitForNext(ShardFeed& feed) {
        std::optional<ShardFeed::Shard> next;
        for (int i = 0; i < 300 && !next; ++i) {
            next = feed.takeNext();
            if (!next)
                QTest::qWait(50);
        }
        return next;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(NginxServer::available(), qPrintable(NginxServer::missingReason()));
        QDir().mkpath(dir_.filePath("www"));
        QDir().mkpath(dir_.filePath("nginx"));
        nginx_ = std::make_unique<NginxServer>(dir_.filePath("www"), dir_.filePath("nginx"));
        QString error;
        QVERIFY2(nginx_->start(&error), qPrintable(error));
        for (int i = 0; i < 5; ++i) {
            const QString name = QStringLiteral("shard-%1.bin").arg(i);
            bytes_.push_back(randomBytes(200000 + 1000 * i, std::uint32_t(i + 1)));
            writeBytes(dir_.filePath("www/" + name), bytes_.back());
            shards_.push_back(shardOf(bytes_.back(), {nginx_->url(name)}));
        }
    }

    void bringsTheNextShardOfTheOrderThroughThePasses() {
        ShardFeed feed(options("walk"), DataCursor::at(shards_, kRun, kPeer, 0, 0));
        DataCursor expected = DataCursor::at(shards_, kRun, kPeer, 0, 0);
        QStringList messages;
        // Two passes and a bit: the second pass has an order of its own.
        for (std::size_t i = 0; i < 2 * shards_.size() + 2; ++i) {
            expected = expected.next(shards_, kRun, kPeer);
            const std::optional<ShardFeed::Shard> next = waitForNext(feed);
            messages += feed.takeMessages();
            QVERIFY2(next, qPrintable(messages.join('\n')));
            QCOMPARE(next->cursor.pass, expected.pass);
            QCOMPARE(next->cursor.position, expected.position);
            QCOMPARE(next->cursor.sha256, expected.sha256);
            QCOMPARE(readBytes(next->path), bytes_[expected.shardIndex(shards_)]);
        }
        // Each shard taken was announced (and the one after the last may be ready already).
        QVERIFY(messages.filter("next shard ready").size() >= qsizetype(2 * shards_.size() + 2));
    }

    void skipsAShardWhoseBytesAreWrong() {
        const DataCursor start = DataCursor::at(shards_, kRun, kPeer, 0, 0);
        const DataCursor bad = start.next(shards_, kRun, kPeer);
        const std::size_t badIndex = bad.shardIndex(shards_);
        QByteArray flipped = bytes_[badIndex];
        flipped[1000] = char(flipped[1000] ^ 0x20);
        const QString served = dir_.filePath("www/" + QStringLiteral("shard-%1.bin").arg(badIndex));
        writeBytes(served, flipped);
        ShardFeed feed(options("skip"), start);
        const std::optional<ShardFeed::Shard> next = waitForNext(feed);
        writeBytes(served, bytes_[badIndex]);
        QVERIFY(next);
        const DataCursor after = bad.next(shards_, kRun, kPeer);
        QCOMPARE(next->cursor.sha256, after.sha256);
        QCOMPARE(readBytes(next->path), bytes_[after.shardIndex(shards_)]);
        const QStringList messages = feed.takeMessages();
        QVERIFY2(!messages.filter("discarded").isEmpty(), qPrintable(messages.join('\n')));
    }

    void theCursorIsReadBackWhereTheVolunteerStopped() {
        const ShardFeed::Options o = options("cursor");
        DataCursor cursor = DataCursor::at(shards_, kRun, kPeer, 1, 3);
        cursor.seed = 0xfedcba9876543210ull; // above 2^53: must survive JSON
        cursor.stream.batch = 17;
        cursor.stream.document = 4;
        {
            ShardFeed feed(o, cursor);
            QCOMPARE(feed.record(cursor), QString());
        }
        QString problem;
        const std::optional<DataCursor> loaded =
            DataCursor::load(o.cursorPath, shards_, kRun, kPeer, &problem);
        QVERIFY2(loaded, qPrintable(problem));
        QCOMPARE(loaded->pass, 1u);
        QCOMPARE(loaded->position, std::size_t(3));
        QCOMPARE(loaded->sha256, cursor.sha256);
        QCOMPARE(loaded->seed, cursor.seed);
        QVERIFY(loaded->stream == cursor.stream);

        // Another run's or another peer's cursor is not ours: no problem, just nothing.
        QVERIFY(!DataCursor::load(o.cursorPath, shards_, "other-run", kPeer, &problem));
        QVERIFY(!DataCursor::load(o.cursorPath, shards_, kRun, "peer-b", &problem));
        // A manifest whose shards changed: the cursor's shard is gone from its place.
        std::vector<run::DataShard> changed = shards_;
        changed[cursor.shardIndex(shards_)] = shardOf(randomBytes(1000, 99), {nginx_->url("other.bin")});
        problem.clear();
        QVERIFY(!DataCursor::load(o.cursorPath, changed, kRun, kPeer, &problem));
        QVERIFY2(problem.contains("starting from this peer's first shard"), qPrintable(problem));
        // Garbage: refused, saying so.
        writeBytes(o.cursorPath, "{not json");
        problem.clear();
        QVERIFY(!DataCursor::load(o.cursorPath, shards_, kRun, kPeer, &problem));
        QVERIFY2(problem.contains("is not a data cursor"), qPrintable(problem));
    }

    void aStoppedFeedCancelsItsDownloadAndKeepsItsPart() {
        // Shards that come at one byte per second, with no stall deadline in reach: only cancelling can
        // end the download when the feed is destroyed in the middle of it (a hang fails the test).
        std::vector<run::DataShard> slow = shards_;
        for (run::DataShard& shard : slow)
            shard.urls = {nginx_->stallUrl(QUrl(shard.urls.front()).fileName())};
        ShardFeed::Options o = options("stopped");
        o.shards = slow;
        o.sources.transfer.stallTime = std::chrono::seconds(600);
        const DataCursor start = DataCursor::at(slow, kRun, kPeer, 0, 0);
        const run::DataShard& next = slow[start.next(slow, kRun, kPeer).shardIndex(slow)];
        {
            ShardFeed feed(o, start);
            QTRY_VERIFY_WITH_TIMEOUT(
                QFile::exists(o.sources.cacheDir + "/" + kRun + "/" + next.sha256 + ".part"), 10000);
        }
        // What arrived stays for the next start to resume.
        QVERIFY(QFile::exists(o.sources.cacheDir + "/" + kRun + "/" + next.sha256 + ".part"));
    }
};

QTEST_GUILESS_MAIN(TestShardFeed)
#include "tst_shard_feed.moc"
