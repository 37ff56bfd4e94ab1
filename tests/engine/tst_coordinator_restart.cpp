// A coordinator that restarts finds the swarm it left (KnownDhtNodes). On loopback, a coordinator and two
// volunteers as real processes train; the coordinator stops and starts again from its state folder on
// another DHT port, while the volunteers go on; a newcomer joins through the restarted coordinator. The
// coordinator pings the DHT nodes it knew before (kept in its state folder), so the newcomer averages in
// groups with the volunteers that never left. Without that, the restarted coordinator is a network of its
// own: the newcomer meets only it (groups of two at most), and the run is split in two.
#include "core/engine/KnownDhtNodes.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::test;

namespace {

const QStringList kTiming{"--gather-ms", "5000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};

int epochsDone(const NodePeer& peer) {
    return static_cast<int>(readJsonLines(peer.dir + "/epochs.jsonl").size());
}

} // namespace

class TestCoordinatorRestart : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

public:
    TestCoordinatorRestart() { qputenv("QTEST_FUNCTION_TIMEOUT", "900000"); }

private Q_SLOTS:
    void aRestartedCoordinatorRejoinsTheSwarmItLeft() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        const QString manifest = dir_.filePath("restart.json");
        const NodeRun init = initTinyRun(manifest, "restart", sampleCorpusPath(), sampleTokenizerPath(),
                                         "256", "0.01", "2", "5");
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
        const QString join = QString(manifest).replace(".json", ".join");
        const QString stateDir = dir_.filePath("coordinator");
        const QStringList coordinator = coordinatorArguments(manifest, stateDir) +
                                        QStringList{"--steps", "1000", "--checkpoint-every", "1"} + kTiming;

        NodePeer first = startNode(stateDir, coordinator);
        const QString bootstrap = coordinatorAddress(first.dir + "/log");
        QVERIFY(!bootstrap.isEmpty());
        const auto volunteer = [&](const QString& name, const QString& via, int seed, int steps) {
            const QString dir = dir_.filePath(name);
            return startNode(dir, volunteerArguments(join, via, dir, steps, seed) + kTiming);
        };
        NodePeer a = volunteer("a", bootstrap, 1, 1000);
        NodePeer b = volunteer("b", bootstrap, 2, 1000);
        QTRY_VERIFY_WITH_TIMEOUT(epochsDone(a) >= 3 && epochsDone(b) >= 3, 300000);
        stopNode(first);
        QVERIFY2(!sahaj::engine::KnownDhtNodes::load(stateDir).isEmpty(),
                 "the coordinator kept no DHT node for its restart");

        // Started again until the system gives it another DHT port (it picks a free one; the old one again is
        // rare, and would let the volunteers' old routing entries find it without the saved nodes).
        NodePeer second;
        QString rebooted;
        for (int tries = 0; tries < 3 && (rebooted.isEmpty() || rebooted == bootstrap); ++tries) {
            if (second.process)
                stopNode(second);
            second = startNode(stateDir, coordinator);
            rebooted = coordinatorAddress(second.dir + "/log");
        }
        QVERIFY(!rebooted.isEmpty());
        QVERIFY2(rebooted != bootstrap, "the restarted coordinator took its old DHT port three times");
        // The newcomer runs until it has averaged in a group of three or more (or gives up, or ten minutes
        // pass): a count of global epochs would end it early on a loaded machine, where it may load the
        // others' state a few times before its first group.
        NodePeer newcomer = volunteer("newcomer", rebooted, 3, 1000);
        const auto widestGroup = [&] {
            int widest = 0;
            for (const QJsonObject& epoch : readJsonLines(newcomer.dir + "/epochs.jsonl"))
                widest = std::max(widest, static_cast<int>(epoch["members"].toArray().size()));
            return widest;
        };
        QElapsedTimer waited;
        waited.start();
        while (widestGroup() < 3 && newcomer.process->state() != QProcess::NotRunning &&
               waited.elapsed() < 600000)
            QTest::qWait(500);
        const int widest = widestGroup();
        const bool left = newcomer.process->state() == QProcess::NotRunning;
        for (NodePeer* peer : {&newcomer, &a, &b, &second})
            stopNode(*peer);
        qInfo("the newcomer's largest group: %d members, after %lld s", widest, waited.elapsed() / 1000);
        if (widest < 3) // QTest cuts a failure's message to about a kilobyte: the log goes out on its own
            qWarning("the newcomer %s; its log ends:\n%s",
                     left ? qPrintable(
                                QStringLiteral("left by itself (exit %1)").arg(newcomer.process->exitCode()))
                          : "was stopped after ten minutes",
                     qPrintable(readText(newcomer.dir + "/log.err").right(4000)));
        QVERIFY2(widest >= 3,
                 qPrintable(QStringLiteral("the newcomer met at most %1 peer(s) in a group: the run "
                                           "split at the coordinator's restart")
                                .arg(widest - 1)));
    }
};

QTEST_GUILESS_MAIN(TestCoordinatorRestart)
#include "tst_coordinator_restart.moc"
