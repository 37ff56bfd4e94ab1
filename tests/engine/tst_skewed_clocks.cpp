// Volunteers whose clocks are 30 s off train with the others (docs/security.md, "Clocks"). On loopback, a
// coordinator and four volunteers as real processes: two with right clocks, one 30 s behind (a node, which
// leads groups too) and one 30 s ahead (a client, which can only join a leader it finds in the DHT), their
// clocks shifted by Debian's libfaketime. Each skewed volunteer averages in a group in most epochs and says
// how far its clock is from the coordinator's. Without the run's time (net::CoordinatorClock: records
// stamped and judged by the coordinator's clock), the client ahead sees every leader's declaration expired
// and never joins a group.
#include "tests/common/NodePeers.h"
#include "tests/common/SkewedClock.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::test;

namespace {

const QStringList kTiming{"--gather-ms", "5000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};
constexpr int kEpochs = 6;

struct Volunteer {
    const char* name;
    const char* skew; // libfaketime's FAKETIME, empty for a right clock
    bool client;
    const char* clockWord; // what its log must say about its clock
};

const Volunteer kVolunteers[] = {
    {"right-1", "", false, nullptr},
    {"right-2", "", false, nullptr},
    {"behind", "-30s", false, "s behind the coordinator's"},
    {"ahead", "+30s", true, "s ahead of the coordinator's"},
};

} // namespace

class TestSkewedClocks : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

public:
    TestSkewedClocks() { qputenv("QTEST_FUNCTION_TIMEOUT", "900000"); }

private Q_SLOTS:
    void volunteersThirtySecondsOffAverageWithTheOthers() {
        SAHAJ_NEEDS_SKEWED_CLOCKS();
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        const QString manifest = dir_.filePath("skew.json");
        const NodeRun init = initTinyRun(manifest, "skew", sampleCorpusPath(), sampleTokenizerPath(), "128",
                                         "0.03", "1", "1000");
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));

        const QString coordinatorDir = dir_.filePath("coordinator");
        NodePeer coordinator = startNode(
            coordinatorDir, coordinatorArguments(manifest, coordinatorDir) +
                                QStringList{"--steps", "1000", "--joins-per-address", "64"} + kTiming);
        const QString bootstrap = coordinatorAddress(coordinator.dir + "/log");
        QVERIFY(!bootstrap.isEmpty());

        std::vector<NodePeer> peers;
        for (std::size_t i = 0; i < std::size(kVolunteers); ++i) {
            const Volunteer& spec = kVolunteers[i];
            const QString dir = dir_.filePath(spec.name);
            QStringList arguments = volunteerArguments(QString(manifest).replace(".json", ".join"), bootstrap,
                                                       dir, kEpochs, 200 + static_cast<int>(i)) +
                                    kTiming;
            if (spec.client)
                arguments << "--client-mode";
            peers.push_back(
                startNode(dir, arguments, *spec.skew ? skewedClockEnvironment(spec.skew) : QStringList{}));
        }
        std::vector<NodePeer*> all;
        for (NodePeer& peer : peers)
            all.push_back(&peer);
        const bool finished = finishNodes(all, 600000);
        stopNode(coordinator);
        QVERIFY2(finished, "not every volunteer reached its last epoch");

        for (std::size_t i = 0; i < peers.size(); ++i) {
            const Volunteer& spec = kVolunteers[i];
            int grouped = 0;
            // An epoch it averaged in a group: one it chased the others' state through has no members.
            for (const QJsonObject& epoch : readJsonLines(peers[i].dir + "/epochs.jsonl"))
                grouped += epoch["members"].toArray().size() >= 2 ? 1 : 0;
            const QString log = readText(peers[i].dir + "/log.err");
            qInfo("%s: averaged in a group in %d of %d epochs", spec.name, grouped, kEpochs);
            // Half the epochs: a volunteer may start an epoch late on a loaded machine, never every time.
            QVERIFY2(grouped >= kEpochs / 2, qPrintable(QStringLiteral("%1 averaged in a group in %2 epochs "
                                                                       "only; its log ends:\n%3")
                                                            .arg(spec.name)
                                                            .arg(grouped)
                                                            .arg(log.right(3000))));
            if (spec.clockWord)
                QVERIFY2(log.contains(spec.clockWord),
                         qPrintable(QStringLiteral("%1 said nothing of its clock").arg(spec.name)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSkewedClocks)
#include "tst_skewed_clocks.moc"
