// Robust aggregation end to end: eight volunteers as sahaj-node processes, two of which attack (one sends
// its gradient reversed and scaled by 1000, one a random direction with 1000 times its norm). With the
// weighted mean the honest peers' loss climbs above where it started; with CenteredClip it stays within
// 10 % of the loss of a clean run after the same number of epochs. The loss compared is the honest
// volunteers' own training loss (the mean over their micro-batches, computed with the current
// parameters), which no attacker can touch, unlike the averaged loss the group reports.
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

using namespace sahaj::test;

namespace {

const QStringList kTiming{"--gather-ms", "5000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};
constexpr int kVolunteers = 8;
constexpr int kEpochs = 10;

struct Outcome {
    double firstLoss = 0.0; // the honest peers' mean local loss at the first epoch
    double lastLoss = 0.0;  // ... and at the last two epochs
    int honest = 0;         // honest peers that reported the last epoch
};

} // namespace

class TestRobustAggregationProcesses : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString tokenizer_;
    QString corpus_;

    QString manifest(const QString& name, const QString& aggregation) {
        const QString path = dir_.filePath(name + ".json");
        const auto init = initTinyRun(path, name, corpus_, tokenizer_, "256", "0.03", "1", "1000",
                                      {"--aggregation", aggregation});
        if (init.status != 0)
            qWarning("%s", qPrintable(init.err + init.out));
        return init.status == 0 ? path : QString();
    }

    // A coordinator and kVolunteers volunteers, the last `attackers` of them attacking, for kEpochs.
    Outcome train(const QString& manifestPath, const QString& name, int attackers) {
        NodePeer coordinator;
        coordinator.dir = dir_.filePath(name + "/coordinator");
        QDir().mkpath(coordinator.dir);
        coordinator.process = launchNode(QStringList{"coordinator", "--manifest", manifestPath, "--listen",
                                                     "127.0.0.1:0", "--state-dir", coordinator.dir, "--out",
                                                     coordinator.dir, "--steps", "1000"} +
                                             kTiming,
                                         coordinator.dir + "/log");
        const QString bootstrap = coordinatorAddress(coordinator.dir + "/log");
        if (bootstrap.isEmpty())
            return {};
        std::vector<NodePeer> peers(kVolunteers);
        for (int i = 0; i < kVolunteers; ++i) {
            NodePeer& peer = peers[static_cast<std::size_t>(i)];
            peer.dir = dir_.filePath(QStringLiteral("%1/v%2").arg(name).arg(i));
            QDir().mkpath(peer.dir);
            QStringList arguments{"volunteer",
                                  "--manifest",
                                  QString(manifestPath).replace(".json", ".join"),
                                  "--coordinator",
                                  bootstrap,
                                  "--identity",
                                  peer.dir,
                                  "--out",
                                  peer.dir,
                                  "--steps",
                                  QString::number(kEpochs),
                                  "--seed",
                                  QString::number(100 + i)};
            const int attacker = i - (kVolunteers - attackers);
            if (attacker >= 0)
                arguments << "--attack" << (attacker % 2 == 0 ? "negate" : "random");
            peer.process = launchNode(arguments + kTiming, peer.dir + "/log");
        }
        std::vector<NodePeer*> all;
        for (NodePeer& peer : peers)
            all.push_back(&peer);
        const bool finished = finishNodes(all, 900000);
        stopNode(coordinator);
        if (!finished)
            qWarning("%s: not every volunteer reached epoch %d", qPrintable(name), kEpochs);

        Outcome outcome;
        double first = 0.0, last = 0.0;
        int firstCount = 0, lastCount = 0;
        for (int i = 0; i < kVolunteers - attackers; ++i) {
            const std::vector<QJsonObject> epochs =
                readJsonLines(peers[static_cast<std::size_t>(i)].dir + "/epochs.jsonl");
            std::vector<double> losses;
            for (const QJsonObject& epoch : epochs)
                if (epoch["local_loss"].toDouble() > 0.0)
                    losses.push_back(epoch["local_loss"].toDouble());
            if (losses.size() < 3)
                continue;
            first += losses.front();
            ++firstCount;
            last += (losses[losses.size() - 1] + losses[losses.size() - 2]) / 2.0;
            ++lastCount;
        }
        outcome.honest = lastCount;
        outcome.firstLoss = firstCount ? first / firstCount : 0.0;
        outcome.lastLoss = lastCount ? last / lastCount : 0.0;
        qInfo("%s: honest peers' local loss %.4f at the start, %.4f over the last two epochs (%d peers)",
              qPrintable(name), outcome.firstLoss, outcome.lastLoss, outcome.honest);
        return outcome;
    }

public:
    // Three collaborations of nine processes each, on a loaded machine: past Qt Test's 5-minute default.
    TestRobustAggregationProcesses() { qputenv("QTEST_FUNCTION_TIMEOUT", "2400000"); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        tokenizer_ = sahaj::test::sampleTokenizerPath();
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
    }

    void centeredClipResistsTwoAttackersOfEight() {
        const QString mean = manifest("robust-mean", "mean");
        const QString clip = manifest("robust-clip", "centered_clip");
        QVERIFY(!mean.isEmpty() && !clip.isEmpty());

        const Outcome clean = train(mean, "clean", 0);
        const Outcome attackedMean = train(mean, "attacked-mean", 2);
        const Outcome attackedClip = train(clip, "attacked-clip", 2);
        // Two thirds of the honest volunteers (4 of 6) with three epochs of their own loss: on two shared
        // cores a volunteer can be starved of CPU for whole epochs (seen: 4 of 6 in a fresh-clone CI run,
        // whose losses were right), and the losses below are means over those that were not.
        for (const Outcome* outcome : {&clean, &attackedMean, &attackedClip})
            QVERIFY2(outcome->honest >= 4, "too few honest volunteers reported their epochs");

        // The clean run learns; the attacked mean undoes it and climbs above where it started; CenteredClip
        // keeps the clean course: it learns too, and ends within 10 % of the clean loss.
        QVERIFY2(clean.lastLoss < clean.firstLoss - 0.05, "the clean run did not learn");
        QVERIFY2(attackedMean.lastLoss > clean.firstLoss,
                 qPrintable(QStringLiteral("with the plain mean the attacked loss %1 did not rise above %2")
                                .arg(attackedMean.lastLoss)
                                .arg(clean.firstLoss)));
        QVERIFY2(attackedClip.lastLoss < clean.firstLoss - 0.05,
                 "with CenteredClip the attacked run did not learn");
        QVERIFY2(std::abs(attackedClip.lastLoss - clean.lastLoss) <= 0.1 * clean.lastLoss,
                 qPrintable(QStringLiteral("CenteredClip's loss %1 is not within 10 %% of the clean %2")
                                .arg(attackedClip.lastLoss)
                                .arg(clean.lastLoss)));
    }
};

QTEST_GUILESS_MAIN(TestRobustAggregationProcesses)
#include "tst_robust_aggregation_processes.moc"
