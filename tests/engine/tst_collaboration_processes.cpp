// The collaboration end to end: a coordinator and volunteers as separate sahaj-node processes that meet
// over a real DHT and average over ZeroMQ on loopback. Checks that the members of every group hold
// bit-identical parameters after each step, that a client never aggregates, that every volunteer ends
// equal, that the coordinator's checkpoint resumes the run after everyone left (newcomers download the
// state), that a peer killed with SIGKILL does not stop the others, and that `eval` reads the
// coordinator's checkpoint.
#include "tests/common/NodeProcess.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>
#include <set>
#include <vector>

using sahaj::test::nodeExecutable;
using sahaj::test::runNode;

namespace {

// Short epochs for a test machine: a small batch, quick group formation.
const QStringList kTiming{"--gather-ms", "2000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};

std::vector<QJsonObject> readLines(const QString& path) {
    std::vector<QJsonObject> lines;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        while (!file.atEnd()) {
            const QJsonDocument document = QJsonDocument::fromJson(file.readLine());
            if (document.isObject())
                lines.push_back(document.object());
        }
    return lines;
}

QJsonObject readObject(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

struct Peer {
    QString dir;
    std::unique_ptr<QProcess> process;
};

} // namespace

class TestCollaborationProcesses : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString manifest_;
    QString corpus_;

    std::unique_ptr<QProcess> launch(const QStringList& arguments, const QString& log) {
        auto process = std::make_unique<QProcess>();
        process->setStandardOutputFile(log + ".out");
        process->setStandardErrorFile(log + ".err");
        process->start(nodeExecutable(), arguments);
        if (!process->waitForStarted())
            qFatal("sahaj-node did not start");
        return process;
    }

    // Starts a coordinator on free ports and returns its DHT address.
    QString startCoordinator(Peer& coordinator, const QString& stateDir, int steps) {
        coordinator.dir = stateDir;
        QDir().mkpath(stateDir);
        coordinator.process = launch(QStringList{"coordinator", "--manifest", manifest_, "--listen",
                                                 "127.0.0.1:0", "--state-dir", stateDir, "--out", stateDir,
                                                 "--steps", QString::number(steps)} +
                                         kTiming,
                                     stateDir + "/log");
        for (int i = 0; i < 600; ++i) {
            QTest::qWait(100);
            for (const QJsonObject& line : readLines(stateDir + "/log.out"))
                if (line["event"] == "joined")
                    return QStringLiteral("127.0.0.1:%1").arg(line["dht_port"].toInt());
        }
        return {};
    }

    Peer startVolunteer(const QString& name, const QString& bootstrap, int steps,
                        const QStringList& extra = {}) {
        Peer peer;
        peer.dir = dir_.filePath(name);
        QDir().mkpath(peer.dir);
        peer.process =
            launch(QStringList{"volunteer", "--manifest", manifest_, "--coordinator", bootstrap, "--identity",
                               peer.dir, "--out", peer.dir, "--steps", QString::number(steps), "--seed",
                               QString::number(name.front().unicode())} +
                       kTiming + extra,
                   peer.dir + "/log");
        return peer;
    }

    static bool finish(std::vector<Peer*> peers, int timeoutMs) {
        QElapsedTimer clock;
        clock.start();
        for (Peer* peer : peers) {
            const int left = std::max<qint64>(1000, timeoutMs - clock.elapsed());
            if (!peer->process->waitForFinished(left)) {
                peer->process->kill();
                peer->process->waitForFinished();
                return false;
            }
        }
        return true;
    }

    static void stop(Peer& peer) {
        if (peer.process->state() != QProcess::NotRunning) {
            peer.process->terminate();
            if (!peer.process->waitForFinished(60000))
                peer.process->kill();
        }
    }

    // Members of one group that entered its round with the same state leave it bit-identical; clients
    // never aggregate. Two members enter with the same state when they went through the same complete
    // rounds since the start, their last state download or their last complete state averaging (a split
    // or a failed round leaves members different, parameters and optimiser moments alike, until the next
    // state averaging heals them). Returns how many rounds it checked.
    static int checkGroups(const std::vector<Peer*>& peers) {
        std::map<QString, QString> hashOf; // lineage + round -> parameters after it
        int checked = 0;
        for (const Peer* peer : peers) {
            QString lineage = QStringLiteral("start");
            for (const QJsonObject& epoch : readLines(peer->dir + "/epochs.jsonl")) {
                const QString hash = epoch["params_sha256"].toString();
                const QString at = QString::number(epoch["epoch"].toInteger());
                if (epoch["state_loaded"].toBool()) {
                    lineage = "loaded " + at + " " + hash;
                    continue;
                }
                QStringList members;
                for (const QJsonValue& member : epoch["members"].toArray()) {
                    members << member["id"].toString();
                    if (member["role"] == "client")
                        [&] { QCOMPARE(member["share"].toDouble(), 0.0); }();
                }
                const QString round = at + ":" + members.join(',');
                if (epoch["alone"].toBool() || !epoch["complete"].toBool()) {
                    lineage += " | " + round + " apart on " + peer->dir;
                    continue;
                }
                const QString key = lineage + " | " + round;
                const auto [it, inserted] = hashOf.emplace(key, hash);
                if (!inserted) {
                    [&] { QVERIFY2(it->second == hash, qPrintable("round " + round + " differs on " + peer->dir)); }();
                    ++checked;
                }
                lineage = epoch["parameters_averaged"].toBool() ? "averaged " + round : key;
            }
        }
        return checked;
    }

    static QString finalHash(const Peer& peer) {
        return readObject(peer.dir + "/summary.json")["final_params_sha256"].toString();
    }
    static qint64 finalEpoch(const Peer& peer) {
        return readObject(peer.dir + "/summary.json")["epoch"].toInteger();
    }

public:
    // Each scenario trains for minutes on a loaded machine: past Qt Test's 5-minute default.
    TestCollaborationProcesses() { qputenv("QTEST_FUNCTION_TIMEOUT", "1500000"); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString tokenizer =
            qEnvironmentVariable("SAHAJ_SHARED_DIR") + "/data/sahajbert-tokenizer/tokenizer.json";
        if (!QFile::exists(tokenizer))
            QSKIP("the sahajBERT tokenizer (SAHAJ_SHARED_DIR/data/sahajbert-tokenizer) is not available");
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
        manifest_ = dir_.filePath("manifest.json");
        const auto init = runNode({"run-init",      "--out",           manifest_, "--run-id",
                                   "collab-test",   "--config",        "tiny",    "--corpus",
                                   corpus_,         "--tokenizer",     tokenizer, "--target-batch",
                                   "384",           "--seq",           "64",      "--lr",
                                   "0.01",          "--warmup",        "2",       "--total-steps",
                                   "100",           "--average-every", "5",       "--coordinator",
                                   "127.0.0.1:4600"});
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
    }

    // (a) 3 nodes + 1 client for 10 steps, then (e) everyone leaves, the coordinator restarts from its
    // checkpoint and two newcomers continue from the saved epoch.
    void trainsEqualAndResumesFromTheCoordinator() {
        Peer coordinator;
        const QString stateDir = dir_.filePath("coordinator");
        const QString bootstrap = startCoordinator(coordinator, stateDir, 1000);
        QVERIFY(!bootstrap.isEmpty());
        Peer a = startVolunteer("a", bootstrap, 10);
        Peer b = startVolunteer("b", bootstrap, 10);
        Peer c = startVolunteer("c", bootstrap, 10);
        Peer client = startVolunteer("client", bootstrap, 10, {"--client-mode"});
        QVERIFY2(finish({&a, &b, &c, &client}, 600000), "the volunteers did not reach step 10");
        stop(coordinator);

        QVERIFY2(checkGroups({&a, &b, &c, &client, &coordinator}) >= 5, "fewer than 5 rounds were shared");
        for (const Peer* peer : {&a, &b, &c, &client}) {
            QCOMPARE(finalEpoch(*peer), 10);
            QCOMPARE(finalHash(*peer), finalHash(a));
        }
        const qint64 saved = readObject(stateDir + "/checkpoint.json")["epoch"].toInteger();
        QVERIFY2(saved > 0, "the coordinator saved no state");

        // The coordinator's checkpoint is a model `eval` reads.
        const auto eval = runNode({"eval", "--checkpoint", stateDir + "/model", "--corpus", corpus_, "--seed",
                                   "1", "--examples", "8", "--seq", "64"});
        QVERIFY2(eval.status == 0, qPrintable(eval.err));
        QVERIFY(QJsonDocument::fromJson(eval.out.toUtf8()).object().contains("mlm_loss"));

        // Nobody is left; the coordinator comes back from its checkpoint and newcomers join it.
        Peer restarted;
        const QString bootstrap2 = startCoordinator(restarted, stateDir, 1000);
        QVERIFY(!bootstrap2.isEmpty());
        QCOMPARE(readLines(stateDir + "/log.out").front()["epoch"].toInteger(), saved);
        const int target = static_cast<int>(saved) + 3;
        Peer d = startVolunteer("d", bootstrap2, target);
        Peer e = startVolunteer("e", bootstrap2, target);
        QVERIFY2(finish({&d, &e}, 600000), "the newcomers did not continue the run");
        stop(restarted);
        for (const Peer* peer : {&d, &e}) {
            const std::vector<QJsonObject> epochs = readLines(peer->dir + "/epochs.jsonl");
            QVERIFY(!epochs.empty());
            QVERIFY2(epochs.front()["state_loaded"].toBool() && epochs.front()["epoch"].toInteger() >= saved,
                     "a newcomer trained before loading the saved state");
            QCOMPARE(finalEpoch(*peer), target);
        }
        QCOMPARE(finalHash(d), finalHash(e));
        checkGroups({&d, &e, &restarted});
    }

    // (c) A node killed with SIGKILL mid-run: the others go on, and end equal after the state averaging of
    // step 10 (the round it died in may have left its span at each member's own values, so in between the
    // survivors may differ).
    void survivesAKilledPeer() {
        Peer coordinator;
        const QString bootstrap = startCoordinator(coordinator, dir_.filePath("coordinator-kill"), 1000);
        QVERIFY(!bootstrap.isEmpty());
        Peer f = startVolunteer("f", bootstrap, 10);
        Peer g = startVolunteer("g", bootstrap, 10);
        Peer h = startVolunteer("h", bootstrap, 10);
        QElapsedTimer clock;
        clock.start();
        while (readLines(f.dir + "/epochs.jsonl").size() < 3 && clock.elapsed() < 300000)
            QTest::qWait(200);
        h.process->kill(); // SIGKILL, whatever it was doing
        h.process->waitForFinished();
        QVERIFY2(finish({&f, &g}, 600000), "the survivors did not reach step 10");
        stop(coordinator);
        QCOMPARE(finalEpoch(f), 10);
        QCOMPARE(finalEpoch(g), 10);
        QCOMPARE(finalHash(f), finalHash(g));
    }
};

QTEST_GUILESS_MAIN(TestCollaborationProcesses)
#include "tst_collaboration_processes.moc"
