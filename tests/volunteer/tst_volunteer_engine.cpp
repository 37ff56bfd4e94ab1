// The desktop app's engine (VolunteerEngine) as a real peer: it joins a collaboration of a coordinator and a
// volunteer running as sahaj-node processes, trains with them, shows them on its peer list with the
// countries they share and the latency it measured, obeys pause (it leaves the network: the others stop
// counting it), resume, "finish this step, then pause" and new limits while it runs, records its epochs and
// transfer in the ledger, and leaves politely.
#include "core/engine/VolunteerEngine.h"
#include "core/store/ContributionLedger.h"
#include "core/store/EpochContribution.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj;
using namespace sahaj::test;

namespace {

const QStringList kTiming{"--gather-ms", "5000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};

// The peers count of the volunteer process's status lines from line `from` on (-1: none yet).
int lastPeersSeen(const QString& log, std::size_t from, std::size_t* lines) {
    const std::vector<QJsonObject> all = readJsonLines(log + ".out");
    int peers = -1;
    std::size_t statusLines = 0;
    for (const QJsonObject& line : all) {
        if (line["event"] != "status")
            continue;
        if (statusLines++ >= from)
            peers = line["peers"].toInt();
    }
    if (lines)
        *lines = statusLines;
    return peers;
}

} // namespace

class TestVolunteerEngine : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString join_;
    NodePeer coordinator_;
    NodePeer volunteer_;
    QString bootstrap_;

    std::shared_ptr<const engine::EngineSnapshot>
    waitFor(engine::VolunteerEngine& engine, const std::function<bool(const engine::EngineSnapshot&)>& done,
            int timeoutMs) {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            if (done(*engine.snapshot()))
                return engine.snapshot();
            QTest::qWait(200);
        }
        return nullptr;
    }

public:
    // The test's own waits (a shared round within 5 minutes, then the pause and the departure) say what
    // went wrong; Qt Test's 5-minute default per function would cut them short on a loaded machine (seen
    // in a fresh-clone CI run: killed at 300 s beside the admission test). ctest's 900 s still bounds it.
    TestVolunteerEngine() { qputenv("QTEST_FUNCTION_TIMEOUT", "840000"); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        const QString tokenizer = sampleTokenizerPath();
        const QString corpus =
            qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
        const QString manifest = dir_.filePath("manifest.json");
        const auto init = runNode({"run-init",      "--out",           manifest,  "--run-id",
                                   "engine-test",   "--config",        "tiny",    "--corpus",
                                   corpus,          "--tokenizer",     tokenizer, "--target-batch",
                                   "256",           "--seq",           "64",      "--lr",
                                   "0.01",          "--warmup",        "2",       "--total-steps",
                                   "1000",          "--average-every", "5",       "--coordinator",
                                   "127.0.0.1:4600"});
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
        join_ = dir_.filePath("manifest.join");

        coordinator_.dir = dir_.filePath("coordinator");
        QDir().mkpath(coordinator_.dir);
        coordinator_.process =
            launchNode(QStringList{"coordinator", "--manifest", manifest, "--listen", "127.0.0.1:0",
                                   "--state-dir", coordinator_.dir, "--out", coordinator_.dir} +
                           kTiming,
                       coordinator_.dir + "/log");
        bootstrap_ = coordinatorAddress(coordinator_.dir + "/log");
        QVERIFY(!bootstrap_.isEmpty());
        volunteer_.dir = dir_.filePath("volunteer");
        QDir().mkpath(volunteer_.dir);
        volunteer_.process = launchNode(QStringList{"volunteer", "--manifest", join_, "--coordinator",
                                                    bootstrap_, "--identity", volunteer_.dir, "--out",
                                                    volunteer_.dir, "--seed", "3", "--country", "IN"} +
                                            kTiming,
                                        volunteer_.dir + "/log");
    }

    void cleanupTestCase() {
        if (volunteer_.process)
            stopNode(volunteer_);
        if (coordinator_.process)
            stopNode(coordinator_);
    }

    void refusesABadRequestAndReportsAFailedJoin() {
        engine::VolunteerEngine engine(dir_.filePath("bad-ledger.sqlite"));
        engine::JoinRequest request;
        request.identityDir = dir_.filePath("bad-identity");
        QVERIFY(engine.join(request).contains("join link")); // no run given
        request.run = dir_.filePath("no-such.join");
        request.country = "Bangladesh";
        QVERIFY(engine.join(request).contains("two-letter"));
        request.country = "BD";
        QCOMPARE(engine.join(request), QString());
        const auto failed = waitFor(
            engine, [](const auto& s) { return s.state == engine::EngineState::Error; }, 60000);
        QVERIFY2(failed, "a join file that does not exist did not end in the error state");
        QVERIFY2(failed->detail.contains("no-such.join"), qPrintable(failed->detail));
    }

    void trainsPausesResumesAndLeaves() {
        const QString ledgerPath = dir_.filePath("ledger.sqlite");
        engine::VolunteerEngine engine(ledgerPath);
        QStringList events;
        connect(&engine, &engine::EngineFacade::eventLogged, this,
                [&](const engine::EngineEvent& event) { events << event.text; });
        engine::JoinRequest request;
        request.run = join_;
        request.coordinator = bootstrap_;
        request.identityDir = dir_.filePath("engine-identity");
        request.country = "BD";
        request.seed = 7;
        request.threads = 1;
        QCOMPARE(engine.join(request), QString());
        QCOMPARE(engine.snapshot()->state, engine::EngineState::Joining);
        QVERIFY(!engine.join(request).isEmpty()); // already in a run

        // It trains with the others: rounds of two or more, figures in the snapshot.
        auto trained = waitFor(
            engine,
            [](const auto& s) {
                return s.localEpoch >= 2 && !s.rounds.empty() && s.rounds.back().members.size() >= 2 &&
                       s.state == engine::EngineState::Training && s.sessionBytesSent > 0 &&
                       s.sessionBytesReceived > 0;
            },
            300000);
        QVERIFY2(trained, qPrintable("no shared round within 5 minutes; events: " + events.join(" | ")));
        QVERIFY(trained->targetBatchSize == 256);
        QVERIFY(trained->localSamplesPerSecond > 0);
        QVERIFY(!trained->loss.empty());
        bool selfInRound = false;
        for (const engine::RoundShare& member : trained->rounds.back().members)
            selfInRound = selfInRound || (member.self && member.peerId == trained->peerId);
        QVERIFY(selfInRound);

        // The peer list: the volunteer process in India, this peer in Bangladesh, the coordinator; the
        // others' latency measured.
        auto seen = waitFor(
            engine,
            [](const auto& s) {
                bool india = false, self = false, coordinator = false, latency = false;
                for (const engine::PeerSighting& peer : s.peers) {
                    india = india || (peer.country == "IN" && peer.role == "node" && !peer.self);
                    self = self || (peer.self && peer.country == "BD");
                    coordinator = coordinator || peer.role == "coordinator";
                    latency = latency || (!peer.self && peer.latencyMs > 0 && peer.latencyMs < 5000);
                }
                return india && self && coordinator && latency;
            },
            120000);
        QString peers;
        for (const engine::PeerSighting& peer : engine.snapshot()->peers)
            peers += QStringLiteral(" [%1 %2 %3 self=%4 %5 ms]")
                         .arg(peer.peerId.left(8), peer.role, peer.country)
                         .arg(peer.self)
                         .arg(peer.latencyMs);
        QVERIFY2(seen,
                 qPrintable("the peer list lacks the volunteer (IN), this peer (BD), the coordinator or a "
                            "latency:" +
                            peers + " events: " + events.join(" | ")));

        // Limits while running: refused when contradictory, applied otherwise.
        engine::EngineLimits limits;
        limits.microBatch = 0;
        QVERIFY(!engine.setLimits(limits).isEmpty());
        limits.microBatch = 4;
        limits.computePercent = 80;
        limits.maxUploadMbps = 400;
        QCOMPARE(engine.setLimits(limits), QString());
        QCOMPARE(engine.snapshot()->limits, limits);

        // Pause: the engine leaves the network, and the volunteer process stops counting it.
        std::size_t before = 0;
        QTRY_VERIFY_WITH_TIMEOUT(lastPeersSeen(volunteer_.dir + "/log", 0, &before) == 3, 90000);
        engine.pause(engine::PauseCause::OnBattery);
        QCOMPARE(engine.snapshot()->state, engine::EngineState::Paused);
        QCOMPARE(engine.snapshot()->cause, engine::PauseCause::OnBattery);
        QTRY_VERIFY_WITH_TIMEOUT(events.join("\n").contains("paused: left the collaboration"), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(lastPeersSeen(volunteer_.dir + "/log", before + 1, nullptr) == 2, 120000);
        const std::uint64_t pausedAt = engine.snapshot()->localEpoch;

        // Resume: it rejoins and trains on.
        engine.resume();
        auto resumed = waitFor(
            engine,
            [&](const auto& s) {
                return s.localEpoch >= pausedAt + 1 && s.state == engine::EngineState::Training;
            },
            300000);
        QVERIFY2(resumed, qPrintable("no step after resuming; events: " + events.join(" | ")));
        QVERIFY(events.join("\n").contains("rejoined the collaboration"));

        // "Finish this step, then pause": one more step, then paused by the user.
        const std::uint64_t asked = engine.snapshot()->localEpoch;
        engine.finishStepThenPause();
        QVERIFY(engine.snapshot()->finishingStep);
        auto finished = waitFor(
            engine, [](const auto& s) { return s.state == engine::EngineState::Paused; }, 300000);
        if (!finished)
            for (const QString& event : events) // all of them: a failure message is cut short
                qWarning("event: %s", qPrintable(event));
        QVERIFY2(finished, "the engine did not pause after its step (its events are above)");
        QCOMPARE(finished->cause, engine::PauseCause::User);
        QVERIFY(finished->localEpoch >= asked + 1);

        // The others killed (the coordinator with them): the engine trains on but says it lost the
        // collaboration once their records have expired, and the peers it still lists do not answer.
        engine.resume();
        QVERIFY(waitFor(
            engine, [](const auto& s) { return s.state == engine::EngineState::Training; }, 120000));
        for (NodePeer* other : {&coordinator_, &volunteer_}) {
            other->process->kill();
            other->process->waitForFinished();
        }
        auto lost = waitFor(
            engine,
            [](const auto& s) {
                return s.collaborationLost &&
                       (s.state == engine::EngineState::Training || s.state == engine::EngineState::Waiting);
            },
            300000);
        QVERIFY2(lost, qPrintable("the lost collaboration went unnoticed; events: " + events.join(" | ")));
        QVERIFY(events.join("\n").contains("lost the collaboration"));
        for (const engine::PeerSighting& peer : lost->peers)
            QVERIFY2(peer.self || !peer.answers, qPrintable(peer.peerId + " still answers"));

        // Leave: offline, and the ledger holds what the snapshots showed.
        engine.leave();
        QVERIFY(waitFor(
            engine, [](const auto& s) { return s.state == engine::EngineState::Offline; }, 60000));
        const store::ContributionLedger ledger(ledgerPath);
        const store::ContributionTotals totals = ledger.totals();
        // At least the shared round; how many more depends on whether the steps after resuming were its
        // own or states it loaded ("finish this step" may end on one), so only the ledger's agreement with
        // the snapshots (below) is exact.
        QVERIFY2(totals.epochsJoined >= 1, qPrintable(QString::number(totals.epochsJoined)));
        QVERIFY(totals.samples > 0 && totals.tokens > totals.samples);
        QCOMPARE(engine.totals(), totals);
        for (const store::EpochContribution& epoch : ledger.lastEpochs(100)) {
            QCOMPARE(epoch.runId, QString("engine-test"));
            QVERIFY(epoch.batchShare > 0.0 && epoch.batchShare <= 1.0);
        }
        const store::TransferTotals transfer = ledger.transferSince(0);
        QVERIFY(transfer.upBytes > 0 && transfer.downBytes > 0);
    }
};

QTEST_GUILESS_MAIN(TestVolunteerEngine)
#include "tst_volunteer_engine.moc"
