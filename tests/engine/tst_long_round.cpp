// A round longer than the DHT records' lifetime, on a slow link: the collaboration thread steps the round
// between its other duties (docs/collaboration.md, "The collaboration thread"), so the member's progress
// record stays in the DHT all through it. A coordinator and two volunteers as sahaj-node processes on
// loopback, records living 4 s, one volunteer's upload capped at 0.4 Mbit/s: its share of the tiny model's
// 1.1 MB vector takes it well over ten seconds to send. The test reads the run's progress records from
// the DHT itself twice a second, as any peer would, and checks that the slow member's record was there
// at every look while its round ran (the round's start and end come from that member's own log).
#include "core/collab/PeerProgress.h"
#include "core/collab/ProgressBoard.h"
#include "core/dht/DhtNode.h"
#include "core/dht/DhtNodeOptions.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <set>
#include <vector>

using namespace sahaj::test;
using namespace std::chrono_literals;

namespace {

const QString kRunId = QStringLiteral("long-round");
constexpr int kRecordTtlSeconds = 4;
const QStringList kTiming{"--gather-ms",     "5000",
                          "--min-gather-ms", "700",
                          "--lead-ms",       "1000",
                          "--threads",       "1",
                          "--record-ttl-s",  QString::number(kRecordTtlSeconds)};

// One look at the DHT: when, and whose progress records were live.
struct Look {
    QDateTime at;
    std::set<std::string> peers;
};

// The time on a log line ("2026-12-05T20:41:12.345Z message"), of the first line matching `pattern`.
QDateTime timeOfLine(const QString& log, const QRegularExpression& pattern) {
    QFile file(log);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine());
        if (pattern.match(line).hasMatch())
            return QDateTime::fromString(line.section(' ', 0, 0), Qt::ISODateWithMs);
    }
    return {};
}

} // namespace

class TestLongRound : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void aMemberStaysVisibleThroughARoundLongerThanItsRecord() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        const QString manifest = dir_.filePath("manifest.json");
        const QString corpus =
            qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
        const auto init =
            initTinyRun(manifest, kRunId, corpus, sampleTokenizerPath(), "128", "0.01", "2", "5");
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));

        const QString coordinatorDir = dir_.filePath("coordinator");
        NodePeer coordinator = startNode(coordinatorDir, coordinatorArguments(manifest, coordinatorDir) +
                                                             QStringList{"--steps", "1"} + kTiming);
        const QString bootstrap = coordinatorAddress(coordinator.dir + "/log");
        QVERIFY(!bootstrap.isEmpty());
        const auto volunteer = [&](const QString& name, const QStringList& extra) {
            const QString dir = dir_.filePath(name);
            return startNode(dir, QStringList{"volunteer", "--manifest", dir_.filePath("manifest.join"),
                                              "--coordinator", bootstrap, "--identity", dir, "--out", dir,
                                              "--steps", "1"} +
                                      kTiming + extra);
        };
        NodePeer fast = volunteer("fast", {});
        NodePeer slow = volunteer("slow", {"--max-upload-mbps", "0.4"});

        sahaj::dht::DhtNodeOptions options;
        options.bootstrap = {bootstrap};
        sahaj::dht::DhtNode reader(options);
        sahaj::collab::ProgressBoard board(reader, kRunId);
        std::vector<Look> looks;
        QElapsedTimer clock;
        clock.start();
        while ((fast.process->state() != QProcess::NotRunning ||
                slow.process->state() != QProcess::NotRunning) &&
               clock.elapsed() < 300000) {
            Look look;
            for (const sahaj::collab::PeerProgress& record : board.fetch(1500ms))
                look.peers.insert(record.peerId);
            look.at = QDateTime::currentDateTimeUtc();
            looks.push_back(std::move(look));
            QTest::qWait(500);
        }
        stopNode(coordinator);
        for (NodePeer* peer : {&fast, &slow}) {
            stopNode(*peer); // only if the five minutes passed
            QVERIFY2(peer->process->exitStatus() == QProcess::NormalExit && peer->process->exitCode() == 0,
                     qPrintable(peer->dir + ": did not reach step 1 by itself"));
        }

        const std::string slowId =
            QByteArray::fromHex(readJsonObject(slow.dir + "/summary.json")["id"].toString().toLatin1())
                .toStdString();
        QVERIFY2(slowId.size() == 32, "the slow volunteer wrote no summary");
        // Its gradient round of epoch 0, as its log says it began streaming and ended.
        const QDateTime began = timeOfLine(
            slow.dir + "/log.err", QRegularExpression(R"(round 0 [0-9a-f]+: connecting -> streaming)"));
        const QDateTime ended =
            timeOfLine(slow.dir + "/log.err", QRegularExpression(R"(round 0 [0-9a-f]+: \S+ -> done)"));
        QVERIFY2(began.isValid() && ended.isValid(), "the slow volunteer's log shows no round of epoch 0");
        // 0.4 Mbit/s bounds the round from below whatever the machine: the test means something only then.
        const qint64 roundMs = began.msecsTo(ended);
        QVERIFY2(
            roundMs > 3 * kRecordTtlSeconds * 1000,
            qPrintable(QStringLiteral("the round took %1 ms, not over three record lifetimes").arg(roundMs)));
        int during = 0;
        for (const Look& look : looks) {
            // From a lifetime into the round (a record published just before it may still be there
            // anyway) to its end.
            if (look.at < began.addSecs(kRecordTtlSeconds) || look.at > ended)
                continue;
            ++during;
            QVERIFY2(
                look.peers.count(slowId),
                qPrintable(QStringLiteral("%1 ms into its round, the slow volunteer had no progress record")
                               .arg(began.msecsTo(look.at))));
        }
        QVERIFY2(during >= 5,
                 qPrintable(QStringLiteral("only %1 looks at the DHT during the round").arg(during)));
    }
};

QTEST_GUILESS_MAIN(TestLongRound)
#include "tst_long_round.moc"
