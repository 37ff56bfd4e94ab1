// ProgressBoard: peers post their progress as signed DHT records and read each other's, and the tracker
// turns them into the collaboration's progress. Real OpenDHT nodes on loopback, in one process.
#include "core/collab/ProgressAggregator.h"
#include "core/collab/ProgressBoard.h"
#include "core/collab/ProgressTracker.h"
#include "core/dht/DhtNode.h"
#include "core/dht/DhtNodeOptions.h"
#include "core/dht/DhtRecord.h"
#include "core/net/protocol.pb.h"
#include "core/security/PeerIdentity.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace sahaj;
using namespace std::chrono_literals;

namespace {

std::shared_ptr<const security::PeerIdentity> newIdentity() {
    return std::make_shared<const security::PeerIdentity>(security::PeerIdentity::generate());
}

} // namespace

class TestProgressBoard : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recordsRoundTrip() {
        collab::PeerProgress progress;
        progress.epoch = 12;
        progress.samplesAccumulated = 3000;
        progress.samplesPerSecond = 41.5;
        progress.measuredAt = collab::WallTimeMs(1'700'000'000'123ms);
        progress.clientMode = true;
        progress.averagingGroup = std::string(16, 'g');
        sahaj::dht::DhtRecord record;
        const auto identity = newIdentity();
        record.owner = identity->id();
        record.payload = collab::ProgressBoard::encode(progress);
        record.issuedAt = std::chrono::system_clock::time_point(1'700'000'000'500ms);
        record.expiresAt = std::chrono::system_clock::time_point(1'700'000'060'000ms);

        collab::PeerProgress decoded;
        QVERIFY(collab::ProgressBoard::decode(record, decoded));
        // The peer id is the record's owner, whose signature the DHT layer checked: never the payload's
        // claim.
        QCOMPARE(decoded.peerId, identity->id().bytes().toStdString());
        QCOMPARE(decoded.epoch, std::uint64_t(12));
        QCOMPARE(decoded.samplesAccumulated, std::uint64_t(3000));
        QCOMPARE(decoded.samplesPerSecond, 41.5);
        QCOMPARE(decoded.measuredAt.time_since_epoch().count(), std::int64_t(1'700'000'000'123));
        QVERIFY(decoded.clientMode);
        QCOMPARE(decoded.averagingGroup, std::string(16, 'g'));
        QCOMPARE(decoded.expiresAt.time_since_epoch().count(), std::int64_t(1'700'000'060'000));

        // Garbage, and figures the rules refuse, are dropped.
        record.payload = "\xff\xff\xff not a record";
        QVERIFY(!collab::ProgressBoard::decode(record, decoded));
        progress.samplesPerSecond = std::numeric_limits<double>::quiet_NaN();
        record.payload = collab::ProgressBoard::encode(progress);
        QVERIFY(!collab::ProgressBoard::decode(record, decoded));
        progress.samplesPerSecond = 1.0;
        progress.samplesAccumulated = 5'000'000'000'000ULL; // beyond any plausible batch
        record.payload = collab::ProgressBoard::encode(progress);
        QVERIFY(!collab::ProgressBoard::decode(record, decoded));
        progress.samplesAccumulated = 3000;
        progress.averagingGroup = std::string(17, 'g'); // not a group id
        record.payload = collab::ProgressBoard::encode(progress);
        QVERIFY(!collab::ProgressBoard::decode(record, decoded));
    }

    // A record's measurement time must fit its signed publication time: at most a day before it, never
    // after it. The ends of the clock's range (0 and near 2^63 ms), which would overflow every reader's
    // time arithmetic or inflate what the record is extrapolated to, are refused.
    void measurementTimesFitThePublication_data() {
        QTest::addColumn<qulonglong>("timeMs");
        QTest::addColumn<bool>("accepted");
        const qulonglong issued = 1'700'000'000'000ULL;
        QTest::newRow("at publication") << issued << true;
        QTest::newRow("a minute before") << issued - 60'000 << true;
        QTest::newRow("a day before") << issued - 86'400'000 << true;
        QTest::newRow("a day and a second before") << issued - 86'401'000 << false;
        QTest::newRow("a second after") << issued + 1'000 << true;
        QTest::newRow("two seconds after") << issued + 2'000 << false;
        QTest::newRow("zero") << 0ULL << false;
        QTest::newRow("INT64_MAX") << qulonglong(std::numeric_limits<std::int64_t>::max()) << false;
        QTest::newRow("UINT64_MAX") << std::numeric_limits<qulonglong>::max() << false;
    }
    void measurementTimesFitThePublication() {
        QFETCH(qulonglong, timeMs);
        QFETCH(bool, accepted);
        wire::ProgressRecord wire;
        wire.set_epoch(3);
        wire.set_samples_accumulated(10);
        wire.set_samples_per_second(2.0);
        wire.set_time_ms(timeMs);
        sahaj::dht::DhtRecord record;
        record.owner = newIdentity()->id();
        record.payload = QByteArray::fromStdString(wire.SerializeAsString());
        record.issuedAt = std::chrono::system_clock::time_point(1'700'000'000'000ms);
        record.expiresAt = record.issuedAt + 60s;
        collab::PeerProgress decoded;
        QCOMPARE(collab::ProgressBoard::decode(record, decoded), accepted);
        if (accepted) {
            // Every reader's arithmetic on it stays in range: the extrapolation is bounded.
            const collab::ProgressAggregator aggregator(100, 30s);
            const double samples = aggregator.samplesAt(decoded, record.issuedAt);
            QVERIFY2(samples >= 10.0 && samples <= 10.0 + 2.0 * 30, qPrintable(QString::number(samples)));
        }
    }

    void peersSeeEachOthersProgress() {
        sahaj::dht::DhtNode bootstrap(sahaj::dht::DhtNodeOptions{});
        const auto makeNode = [&](std::shared_ptr<const security::PeerIdentity> identity) {
            sahaj::dht::DhtNodeOptions options;
            options.bootstrap = {QStringLiteral("127.0.0.1:%1").arg(bootstrap.port())};
            options.identity = std::move(identity);
            return std::make_unique<sahaj::dht::DhtNode>(options);
        };
        const auto idA = newIdentity();
        const auto idB = newIdentity();
        auto nodeA = makeNode(idA);
        auto nodeB = makeNode(idB);
        QTRY_VERIFY_WITH_TIMEOUT(nodeA->connectedNodeCount() > 0 && nodeB->connectedNodeCount() > 0, 60000);

        collab::ProgressBoard boardA(*nodeA, "board-test");
        collab::ProgressBoard boardB(*nodeB, "board-test");
        QCOMPARE(boardA.key(), QString("sahaj/board-test/progress"));

        const auto now = std::chrono::system_clock::now();
        collab::ProgressTracker trackerA({idA->id().bytes().toStdString(), false, 1000, 60s, 30s}, 4);
        collab::ProgressTracker trackerB({idB->id().bytes().toStdString(), false, 1000, 60s, 30s}, 4);
        trackerA.reportLocal(300, 20.0, now);
        trackerB.reportLocal(200, 10.0, now);
        boardA.publish(trackerA.localRecord(now), 60s);
        boardB.publish(trackerB.localRecord(now), 60s);

        // B reads both records (its own among them: the tracker ignores that copy) and sees A's figures.
        std::vector<collab::PeerProgress> seen;
        QTRY_VERIFY_WITH_TIMEOUT((seen = boardB.fetch(5s)).size() == 2, 60000);
        trackerB.update(seen, now);
        QCOMPARE(trackerB.remotePeers(), std::size_t(1));
        const collab::GlobalProgress global = trackerB.globalProgress(now);
        QCOMPARE(global.epoch, std::uint64_t(4));
        QCOMPARE(global.samplesReported, std::uint64_t(500));
        QCOMPARE(global.samplesPerSecond, 30.0);
        QCOMPARE(global.peers, 2);
        // 500 of 1000 samples at 30 per second: the batch fills in 500 / 30 = 16.7 s.
        QVERIFY(global.eta &&
                std::abs(std::chrono::duration<double>(*global.eta - now).count() - 500.0 / 30.0) < 0.01);
        QCOMPARE(boardB.rejectedRecords(), std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestProgressBoard)
#include "tst_progress_board.moc"
