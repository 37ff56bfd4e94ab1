// A coordinator that restarts finds the swarm it left (KnownDhtNodes). On loopback, a coordinator and two
// volunteers as real processes train; the coordinator stops and starts again from its state folder on
// another DHT port, while the volunteers go on; a newcomer joins through the restarted coordinator. The
// coordinator pings the DHT nodes it knew before (kept in its state folder), so the newcomer averages in
// groups with the volunteers that never left. Without that, the restarted coordinator is a network of its
// own: the newcomer meets only it (groups of two at most), and the run is split in two.
#include "core/engine/KnownDhtNodes.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

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
        NodePeer newcomer = volunteer("newcomer", rebooted, 3, epochsDone(a) + 6);
        const bool finished = finishNodes({&newcomer}, 600000);
        for (NodePeer* peer : {&a, &b, &second})
            stopNode(*peer);
        QVERIFY2(finished, "the newcomer did not reach its last epoch");

        // The newcomer's groups: the volunteers that stayed are in them, not the restarted coordinator alone.
        int widest = 0;
        for (const QJsonObject& epoch : readJsonLines(newcomer.dir + "/epochs.jsonl"))
            widest = std::max(widest, static_cast<int>(epoch["members"].toArray().size()));
        qInfo("the newcomer's largest group: %d members", widest);
        QVERIFY2(widest >= 3,
                 qPrintable(QStringLiteral("the newcomer met at most %1 peer(s) in a group: the run "
                                           "split at the coordinator's restart; its log ends:\n%2")
                                .arg(widest - 1)
                                .arg(readText(newcomer.dir + "/log.err").right(3000))));
    }
};

QTEST_GUILESS_MAIN(TestCoordinatorRestart)
#include "tst_coordinator_restart.moc"
