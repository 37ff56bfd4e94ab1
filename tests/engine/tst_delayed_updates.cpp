// Delayed parameter updates (a run made with `run-init --delayed-updates`, docs/collaboration.md): each
// volunteer averages a batch's gradient while it computes the next one, and steps when the round ends. On
// loopback, a coordinator and three volunteers (one a client, one with its upload capped so that rounds take
// a while) as real processes: every volunteer computes samples of the next batch during the rounds, and the
// members of each group still hold bit-identical parameters after every complete round, the step being the
// same averaged gradient applied to the same parameters whenever it is applied. With synchronous updates no
// sample is computed during a round: the first check fails.
#include "tests/common/EqualRounds.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::test;

namespace {

const QStringList kTiming{"--gather-ms", "5000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};
constexpr int kEpochs = 8;

} // namespace

class TestDelayedUpdates : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

public:
    TestDelayedUpdates() { qputenv("QTEST_FUNCTION_TIMEOUT", "900000"); }

private Q_SLOTS:
    void volunteersComputeDuringRoundsAndStayEqual() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        const QString manifest = dir_.filePath("delayed.json");
        const NodeRun init = initTinyRun(manifest, "delayed", sampleCorpusPath(), sampleTokenizerPath(),
                                         "256", "0.01", "2", "5", {"--delayed-updates"});
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
        QVERIFY2(readJsonObject(manifest)["training"].toObject()["delayed_updates"].toBool(),
                 "the manifest does not ask for delayed updates");

        const QString coordinatorDir = dir_.filePath("coordinator");
        NodePeer coordinator = startNode(coordinatorDir, coordinatorArguments(manifest, coordinatorDir) +
                                                             QStringList{"--steps", "1000"} + kTiming);
        const QString bootstrap = coordinatorAddress(coordinator.dir + "/log");
        QVERIFY(!bootstrap.isEmpty());
        const QString join = QString(manifest).replace(".json", ".join");
        const auto volunteer = [&](const QString& name, int seed, const QStringList& extra) {
            const QString dir = dir_.filePath(name);
            return startNode(dir, volunteerArguments(join, bootstrap, dir, kEpochs, seed) + kTiming + extra);
        };
        NodePeer a = volunteer("a", 1, {});
        NodePeer slow = volunteer("slow", 2, {"--max-upload-mbps", "8"});
        NodePeer client = volunteer("client", 3, {"--client-mode"});
        const bool finished = finishNodes({&a, &slow, &client}, 600000);
        stopNode(coordinator);
        QVERIFY2(finished, "not every volunteer reached its last epoch");

        for (const NodePeer* peer : {&a, &slow, &client}) {
            qint64 during = 0;
            int epochs = 0;
            for (const QJsonObject& epoch : readJsonLines(peer->dir + "/epochs.jsonl")) {
                during += epoch["samples_during_round"].toInteger();
                ++epochs;
            }
            qInfo("%s: %lld samples computed during the rounds of %d epochs", qPrintable(peer->dir),
                  static_cast<long long>(during), epochs);
            QVERIFY2(during > 0, qPrintable(peer->dir + " computed nothing while its rounds ran"));
        }
        QVERIFY2(checkEqualRounds({&a, &slow, &client, &coordinator}) >= kEpochs / 2,
                 "fewer than half the rounds were shared");
    }
};

QTEST_GUILESS_MAIN(TestDelayedUpdates)
#include "tst_delayed_updates.moc"
