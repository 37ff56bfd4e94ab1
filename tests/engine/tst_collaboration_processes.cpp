// The collaboration end to end: a coordinator and volunteers as separate sahaj-node processes that meet
// over a real DHT and average over ZeroMQ on loopback. Checks that the members of every group hold
// bit-identical parameters after each step, that a client never aggregates, that every volunteer ends
// equal, that the coordinator's checkpoint resumes the run after everyone left (newcomers download the
// state), that a peer killed with SIGKILL does not stop the others, nor a volunteer's compute core killed
// the same way, that `eval` reads the coordinator's checkpoint, that a volunteer lying in the state
// rounds is refused, named and banned, and that one lying about its progress is bounded and named.
#include "core/collab/GroupPlanner.h"
#include "core/collab/PartitionPlan.h"
#include "core/collab/TensorEncoding.h"
#include "tests/common/EqualRounds.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <memory>
#include <set>
#include <vector>

using namespace sahaj::test;

namespace {

// Volunteers' CPUs differ, and ATen picks its kernels by the CPU: peers made to use its scalar kernels
// (kScalarKernels) and its AVX2 ones (kVectorKernels) must still step to bit-identical parameters.
const QStringList kScalarKernels{"ATEN_CPU_CAPABILITY=default"};
const QStringList kVectorKernels{"ATEN_CPU_CAPABILITY=avx2"};

// Short epochs for a test machine: a small batch, quick group formation.
const QStringList kTiming{"--gather-ms", "5000", "--min-gather-ms", "700",
                          "--lead-ms",   "1000", "--threads",       "1"};

using Peer = sahaj::test::NodePeer;

} // namespace

class TestCollaborationProcesses : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString manifest_; // the coordinator's
    QString join_;     // the volunteers': the signed join file run-init wrote beside the manifest
    QString corpus_;
    QString tokenizer_;

    // Starts a coordinator on free ports and returns its DHT address.
    QString startCoordinator(Peer& coordinator, const QString& stateDir, int steps,
                             const QStringList& environment = {}, const QString& manifest = {}) {
        coordinator.dir = stateDir;
        QDir().mkpath(stateDir);
        coordinator.process =
            launchNode(QStringList{"coordinator", "--manifest", manifest.isEmpty() ? manifest_ : manifest,
                                   "--listen", "127.0.0.1:0", "--state-dir", stateDir, "--out", stateDir,
                                   "--steps", QString::number(steps)} +
                           kTiming,
                       stateDir + "/log", environment);
        return coordinatorAddress(stateDir + "/log");
    }

    Peer startVolunteer(const QString& name, const QString& bootstrap, int steps,
                        const QStringList& extra = {}, const QStringList& environment = {},
                        const QString& join = {}) {
        Peer peer;
        peer.dir = dir_.filePath(name);
        QDir().mkpath(peer.dir);
        peer.process = launchNode(QStringList{"volunteer", "--manifest", join.isEmpty() ? join_ : join,
                                              "--coordinator", bootstrap, "--identity", peer.dir, "--out",
                                              peer.dir, "--steps", QString::number(steps), "--seed",
                                              QString::number(name.front().unicode())} +
                                      kTiming + extra,
                                  peer.dir + "/log", environment);
        return peer;
    }

    static QString finalHash(const Peer& peer) {
        return readJsonObject(peer.dir + "/summary.json")["final_params_sha256"].toString();
    }
    // Each epoch `peer` recorded, a line each (group, completeness, parameters, problems), and its log's
    // lines about groups and bans: what a failed comparison of final parameters prints, since a run's logs
    // are gone with the test's folder.
    static QString epochHistory(const Peer& peer) {
        QString history = peer.dir + ":\n";
        for (const QJsonObject& epoch : readJsonLines(peer.dir + "/epochs.jsonl")) {
            QStringList members;
            for (const QJsonValue member : epoch["members"].toArray())
                members << member["id"].toString().left(8);
            QStringList problems;
            for (const QJsonValue problem : epoch["problems"].toArray())
                problems << problem.toString().left(160);
            history +=
                QStringLiteral("  epoch %1 loaded=%2 alone=%3 complete=%4 averaged=%5 params=%6 group=[%7] "
                               "problems=[%8]\n")
                    .arg(epoch["epoch"].toInteger())
                    .arg(epoch["state_loaded"].toBool())
                    .arg(epoch["alone"].toBool())
                    .arg(epoch["complete"].toBool())
                    .arg(epoch["parameters_averaged"].toBool())
                    .arg(epoch["params_sha256"].toString().left(8), members.join(' '), problems.join(" | "));
        }
        for (const QString& line : readText(peer.dir + "/log.err").split('\n'))
            if (line.contains(QLatin1String("a group of")) || line.contains(QLatin1String("banned")) ||
                line.contains(QLatin1String("alone")) || line.contains(QLatin1String("loaded the state")) ||
                line.contains(QLatin1String("left a group")))
                history += "  " + line.left(220) + "\n";
        return history;
    }
    // Fails the test, printing both peers' histories, when their final parameters differ.
    static void compareFinalParameters(const Peer& a, const Peer& b) {
        if (finalHash(a) != finalHash(b))
            qWarning("%s%s", qPrintable(epochHistory(a)), qPrintable(epochHistory(b)));
        QCOMPARE(finalHash(a), finalHash(b));
    }
    // The pid of the compute core `peer` runs once it has finished `epochs` epochs (its log names it), or
    // -1 when that does not happen within two minutes.
    static qint64 coreAfterEpochs(const Peer& peer, std::size_t epochs) {
        const QRegularExpression started(QStringLiteral("compute core started: .* \\(pid (\\d+)\\)"));
        for (int i = 0; i < 1200; ++i) {
            if (readJsonLines(peer.dir + "/epochs.jsonl").size() >= epochs) {
                qint64 pid = -1;
                auto matches = started.globalMatch(readText(peer.dir + "/log.err"));
                while (matches.hasNext())
                    pid = matches.next().captured(1).toLongLong();
                return pid;
            }
            QTest::qWait(100);
        }
        return -1;
    }

    static qint64 finalEpoch(const Peer& peer) {
        return readJsonObject(peer.dir + "/summary.json")["epoch"].toInteger();
    }

public:
    // Each scenario trains for minutes on a loaded machine: past Qt Test's 5-minute default.
    TestCollaborationProcesses() { qputenv("QTEST_FUNCTION_TIMEOUT", "1500000"); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS")); // to look at a failure
        tokenizer_ = sahaj::test::sampleTokenizerPath();
        const QString& tokenizer = tokenizer_;
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
        manifest_ = dir_.filePath("manifest.json");
        const auto init = initTinyRun(manifest_, "collab-test", corpus_, tokenizer, "384", "0.01", "2", "5");
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
        join_ = dir_.filePath("manifest.join");
    }

    // (a) 3 nodes + 1 client for 10 steps, b on ATen's scalar kernels and the others on its AVX2 ones, then
    // (e) everyone leaves, the coordinator restarts from its checkpoint and two newcomers continue from the
    // saved epoch.
    void trainsEqualAndResumesFromTheCoordinator() {
        Peer coordinator;
        const QString stateDir = dir_.filePath("coordinator");
        const QString bootstrap = startCoordinator(coordinator, stateDir, 1000, kVectorKernels);
        QVERIFY(!bootstrap.isEmpty());
        Peer a = startVolunteer("a", bootstrap, 10, {}, kVectorKernels);
        Peer b = startVolunteer("b", bootstrap, 10, {}, kScalarKernels);
        Peer c = startVolunteer("c", bootstrap, 10, {}, kVectorKernels);
        Peer client = startVolunteer("client", bootstrap, 10, {"--client-mode"}, kVectorKernels);
        // (g) a's compute core killed with SIGKILL mid-run: a restarts it, loses one micro-batch at most,
        // and ends equal with the others.
        const qint64 killedCore = coreAfterEpochs(a, 2);
        QVERIFY2(killedCore > 0, "volunteer a started no compute core");
        QCOMPARE(::kill(static_cast<pid_t>(killedCore), SIGKILL), 0);
        QVERIFY2(finishNodes({&a, &b, &c, &client}, 600000), "the volunteers did not reach step 10");
        stopNode(coordinator);
        const QString log = readText(a.dir + "/log.err");
        QVERIFY2(log.contains(QStringLiteral("(pid %1) was killed by signal 9").arg(killedCore)) &&
                     log.contains(QStringLiteral("restarting in")),
                 "a did not report and restart its killed core");
        // The link's group phases are said as they change (CollaborationLink::GroupPhase): an epoch's group
        // is looked for, pending, handed over and done with.
        for (const char* change : {"link: idle -> matchmaking", "link: matchmaking -> pending",
                                   "link: pending -> handed over", "link: handed over -> idle"})
            QVERIFY2(log.contains(QLatin1String(change)), change);

        QVERIFY2(checkEqualRounds({&a, &b, &c, &client, &coordinator}) >= 5,
                 "fewer than 5 rounds were shared");
        // Once a peer's bandwidth is measured, the kernel paces its rounds' connections; they stay equal.
        int pacedRounds = 0;
        for (const Peer* peer : {&a, &b, &c, &client})
            for (const QJsonObject& epoch : readJsonLines(peer->dir + "/epochs.jsonl"))
                pacedRounds += epoch["paced_connections"].toInt() > 0 ? 1 : 0;
        QVERIFY2(pacedRounds > 0, "no round was paced");
        for (const Peer* peer : {&a, &b, &c, &client}) {
            QCOMPARE(finalEpoch(*peer), 10);
            compareFinalParameters(*peer, a);
            if (QTest::currentTestFailed())
                return;
        }
        const qint64 saved = readJsonObject(stateDir + "/checkpoint.json")["epoch"].toInteger();
        QVERIFY2(saved > 0, "the coordinator saved no state");

        // The coordinator's checkpoint is a model `eval` reads.
        const auto eval = runNode({"eval", "--checkpoint", stateDir + "/model", "--corpus", corpus_, "--seed",
                                   "1", "--examples", "8", "--seq", "64"});
        QVERIFY2(eval.status == 0, qPrintable(eval.err));
        QVERIFY(QJsonDocument::fromJson(eval.out.toUtf8()).object().contains("mlm_loss"));
        const auto fill = runNode(
            {"fill-mask", "--checkpoint", stateDir + "/model", "--json", "--top", "3", "আমি [MASK] যাব"});
        QVERIFY2(fill.status == 0, qPrintable(fill.err));

        // Nobody is left; the coordinator comes back from its checkpoint and newcomers join it.
        Peer restarted;
        const QString bootstrap2 = startCoordinator(restarted, stateDir, 1000);
        QVERIFY(!bootstrap2.isEmpty());
        qint64 resumedAt = -1;
        for (const QJsonObject& line : readJsonLines(stateDir + "/log.out"))
            if (line["event"] == "joined" && resumedAt < 0)
                resumedAt = line["epoch"].toInteger();
        QCOMPARE(resumedAt, saved);
        // At least three more steps, ending with a parameter averaging (every 5 epochs): a newcomer that
        // missed a round meanwhile (it stepped alone) is equal to the others again after it.
        int target = static_cast<int>(saved) + 3;
        while (target % 5 != 0)
            ++target;
        Peer d = startVolunteer("d", bootstrap2, target);
        Peer e = startVolunteer("e", bootstrap2, target);
        QVERIFY2(finishNodes({&d, &e}, 600000), "the newcomers did not continue the run");
        stopNode(restarted);
        for (const Peer* peer : {&d, &e}) {
            const std::vector<QJsonObject> epochs = readJsonLines(peer->dir + "/epochs.jsonl");
            QVERIFY(!epochs.empty());
            QVERIFY2(epochs.front()["state_loaded"].toBool() && epochs.front()["epoch"].toInteger() >= saved,
                     "a newcomer trained before loading the saved state");
            QCOMPARE(finalEpoch(*peer), target);
        }
        compareFinalParameters(d, e);
        if (QTest::currentTestFailed())
            return;
        checkEqualRounds({&d, &e, &restarted});
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
        while (readJsonLines(f.dir + "/epochs.jsonl").size() < 3 && clock.elapsed() < 300000)
            QTest::qWait(200);
        h.process->kill(); // SIGKILL, whatever it was doing
        h.process->waitForFinished();
        QVERIFY2(finishNodes({&f, &g}, 600000), "the survivors did not reach step 10");
        stopNode(coordinator);
        QCOMPARE(finalEpoch(f), 10);
        QCOMPARE(finalEpoch(g), 10);
        compareFinalParameters(f, g);
    }

    // (b) With upload caps, each round's shares are the load balancer's plan for the bandwidths the members
    // declared, which never exceed their caps; the client's share is 0.
    void sharesFollowTheMeasuredBandwidths() {
        Peer coordinator;
        const QString bootstrap = startCoordinator(coordinator, dir_.filePath("coordinator-caps"), 1000);
        QVERIFY(!bootstrap.isEmpty());
        const std::map<QString, double> capsMbps{{"p", 8}, {"q", 16}, {"r", 32}, {"k", 16}};
        std::vector<Peer> peers;
        for (const auto& [name, cap] : capsMbps) {
            QStringList extra{"--max-upload-mbps", QString::number(cap)};
            if (name == "k")
                extra << "--client-mode";
            peers.push_back(startVolunteer(name, bootstrap, 5, extra));
        }
        std::vector<Peer*> all;
        for (Peer& peer : peers)
            all.push_back(&peer);
        QVERIFY2(finishNodes(all, 600000), "the capped volunteers did not reach step 5");
        stopNode(coordinator);

        std::map<QString, double> capOf; // peer id -> cap in values per second (fp16: 2 bytes a value)
        for (Peer& peer : peers)
            capOf[readJsonObject(peer.dir + "/summary.json")["id"].toString()] =
                capsMbps.at(QFileInfo(peer.dir).fileName()) * 1e6 / 8 / 2;
        int rounds = 0;
        for (Peer& peer : peers) {
            // The caps are known figures: once both directions are (the download by measurement), each
            // round's connections are paced at them (net::ConnectionPacer).
            // Some round must pace them; not necessarily the last, in which one volunteer of the four paced
            // nothing in two runs of this test (not explained yet).
            int pacedRounds = 0;
            for (const QJsonObject& epoch : readJsonLines(peer.dir + "/epochs.jsonl"))
                if (!epoch["alone"].toBool() && !epoch["state_loaded"].toBool())
                    pacedRounds += epoch["paced_connections"].toInt() >= 1 ? 1 : 0;
            QVERIFY2(pacedRounds >= 1, qPrintable(peer.dir + ": no round paced a connection"));
            for (const QJsonObject& epoch : readJsonLines(peer.dir + "/epochs.jsonl")) {
                if (epoch["alone"].toBool() || epoch["state_loaded"].toBool())
                    continue;
                std::vector<sahaj::collab::GroupMember> members;
                for (const QJsonValue& m : epoch["members"].toArray()) {
                    const QString id = m["id"].toString();
                    if (capOf.count(id))
                        QVERIFY2(m["bandwidth"].toDouble() <= capOf[id] * (1 + 1e-9),
                                 "a member declared more than its cap");
                    const auto role =
                        m["role"] == "client" ? sahaj::wire::ROLE_CLIENT : sahaj::wire::ROLE_NODE;
                    members.push_back({QByteArray::fromHex(id.toLatin1()).toStdString(),
                                       role,
                                       role == sahaj::wire::ROLE_CLIENT ? "" : "tcp://127.0.0.1:1",
                                       m["bandwidth"].toDouble(),
                                       m["weight"].toDouble(),
                                       {},
                                       {}});
                }
                const std::int64_t size = epoch["vector_size"].toInteger();
                const sahaj::collab::GroupSpec plan =
                    sahaj::collab::GroupPlanner::plan(members, 0, sahaj::collab::TensorEncoding::fp16(), size,
                                                      sahaj::collab::PartitionPlan::kDefaultPartElements);
                for (std::size_t i = 0; i < plan.members.size(); ++i) {
                    const QString id = QByteArray::fromStdString(plan.members[i].peerId).toHex();
                    for (const QJsonValue& m : epoch["members"].toArray())
                        if (m["id"].toString() == id)
                            QCOMPARE(m["share"].toDouble(), static_cast<double>(plan.spanCounts[i]) / size);
                    if (plan.members[i].role == sahaj::wire::ROLE_CLIENT)
                        QCOMPARE(plan.spanCounts[i], std::int64_t{0});
                }
                ++rounds;
            }
        }
        QVERIFY(rounds > 0);
    }

    // (g) A volunteer that claims 10 Gbit/s over a 16 Mbit/s link (its transport capped like its two honest
    // peers') gets no larger span than what leaders saw it deliver supports: once timed, its planned
    // bandwidth is a small fraction of its claim and its span at most twice an honest peer's on the same
    // link, where the claim alone would take most of the vector. Rounds it led itself are left out: a leader
    // plans with its own word (docs/security.md).
    void anInflatedBandwidthClaimIsCappedByMeasuredThroughput() {
        Peer coordinator;
        const QString bootstrap = startCoordinator(coordinator, dir_.filePath("coordinator-claims"), 1000);
        QVERIFY(!bootstrap.isEmpty());
        const QStringList link{"--max-upload-mbps", "16", "--max-download-mbps", "16"};
        Peer honest = startVolunteer("v", bootstrap, 6, link);
        Peer other = startVolunteer("w", bootstrap, 6, link);
        Peer liar = startVolunteer("x", bootstrap, 6, link + QStringList{"--claim-mbps", "10000"});
        QVERIFY2(finishNodes({&honest, &other, &liar}, 600000), "the volunteers did not reach step 6");
        stopNode(coordinator);

        const QString liarId = readJsonObject(liar.dir + "/summary.json")["id"].toString();
        const QString honestIds[] = {readJsonObject(honest.dir + "/summary.json")["id"].toString(),
                                     readJsonObject(other.dir + "/summary.json")["id"].toString()};
        std::set<qint64> ledByLiar;
        for (const QJsonObject& epoch : readJsonLines(liar.dir + "/epochs.jsonl"))
            if (epoch["led"].toBool())
                ledByLiar.insert(epoch["epoch"].toInteger());
        const double claim = 10000e6 / 8 / 2; // values per second at 2 bytes a value
        int checked = 0;
        for (const QJsonObject& epoch : readJsonLines(honest.dir + "/epochs.jsonl")) {
            const qint64 number = epoch["epoch"].toInteger();
            if (epoch["alone"].toBool() || epoch["state_loaded"].toBool() || number < 3 ||
                ledByLiar.count(number))
                continue;
            double liarShare = -1, liarBandwidth = 0, honestShare = 0;
            // Every member's bandwidth and share, to tell a lie that paid from measurement noise.
            QString plan;
            for (const QJsonValue& m : epoch["members"].toArray()) {
                plan += QStringLiteral(" %1: %2 values/s, share %3")
                            .arg(m["id"].toString() == liarId ? QStringLiteral("liar")
                                                              : m["id"].toString().left(8))
                            .arg(m["bandwidth"].toDouble())
                            .arg(m["share"].toDouble());
                if (m["id"].toString() == liarId) {
                    liarShare = m["share"].toDouble();
                    liarBandwidth = m["bandwidth"].toDouble();
                }
                for (const QString& id : honestIds)
                    if (m["id"].toString() == id)
                        honestShare = std::max(honestShare, m["share"].toDouble());
            }
            if (liarShare < 0)
                continue; // the liar was not in this group
            QVERIFY2(liarBandwidth < claim / 100, qPrintable(QString::number(liarBandwidth)));
            QVERIFY2(liarShare <= 2 * honestShare + 1e-6,
                     qPrintable(QStringLiteral("epoch %1: liar %2, honest %3;%4")
                                    .arg(number)
                                    .arg(liarShare)
                                    .arg(honestShare)
                                    .arg(plan)));
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    // (f) A volunteer ten times slower than the others (it computes 10 % of the time) contributes what it
    // can: no round waits for it past the timeouts, and everyone reaches the last step.
    void aStragglerNeverBlocksAnEpoch() {
        Peer coordinator;
        const QString bootstrap = startCoordinator(coordinator, dir_.filePath("coordinator-slow"), 1000);
        QVERIFY(!bootstrap.isEmpty());
        Peer s = startVolunteer("s", bootstrap, 6);
        Peer t = startVolunteer("t", bootstrap, 6);
        Peer slow = startVolunteer("u", bootstrap, 6, {"--max-compute-percent", "10"});
        QVERIFY2(finishNodes({&s, &t, &slow}, 600000), "the volunteers did not reach step 6");
        stopNode(coordinator);
        for (const Peer* peer : {&s, &t, &slow}) {
            QCOMPARE(finalEpoch(*peer), 6);
            for (const QJsonObject& epoch : readJsonLines(peer->dir + "/epochs.jsonl"))
                QVERIFY2(epoch["round_seconds"].toDouble() < 30.0,
                         "a round waited past the aggregator timeout");
        }
        for (const Peer* peer : {&t, &slow}) {
            compareFinalParameters(s, *peer);
            if (QTest::currentTestFailed())
                return;
        }
        double fast = 0, slowSamples = 0;
        for (const QJsonObject& epoch : readJsonLines(s.dir + "/epochs.jsonl"))
            fast += epoch["local_samples"].toDouble();
        for (const QJsonObject& epoch : readJsonLines(slow.dir + "/epochs.jsonl"))
            slowSamples += epoch["local_samples"].toDouble();
        QVERIFY2(slowSamples < fast / 3, "the slow volunteer was not slower");
    }

    // (h) Admitted is not trusted: a volunteer lies in every state round (here the state is averaged after
    // every epoch), and the honest volunteers name it, ban it, and finish every step with equal parameters.
    // negative-moments: it sends LAMB second moments of -1e30, refused by every aggregator its parts reach,
    // and its own span's mean, which holds them, by every member; without the floor on state parts the
    // averaged state has negative second moments, which no member can load.
    // heavy-state: it puts a weight of 10^12 on parameters of its own, refused because a state part weighs
    // 1; without that bound every aggregator takes them, bans nobody, and its parameters become everyone's.
    void aVolunteerLyingInTheStateRoundsIsRefusedAndNamed_data() {
        QTest::addColumn<QString>("attack");
        QTest::addColumn<QString>("offence"); // what the ban and the round's problems say
        QTest::newRow("negative-moments") << "negative-moments"
                                          << "second moment";
        QTest::newRow("heavy-state") << "heavy-state"
                                     << "above the most its sender may put on it \\(1\\.0";
    }
    void aVolunteerLyingInTheStateRoundsIsRefusedAndNamed() {
        QFETCH(QString, attack);
        QFETCH(QString, offence);
        const LiarRun run = runWithALiar("every-epoch-" + attack, attack, "384", "1");
        if (QTest::currentTestFailed())
            return;
        // The aggregators that see the offence (for negative moments, those whose spans hold second
        // moments: the others' spans hold parameters and first moments, which have no floor) catch the
        // liar's parts: at least one, a volunteer or the coordinator, names and bans it by its whole id;
        // nobody bans an honest peer.
        int refused = 0;
        int banned = 0;
        const QRegularExpression banOfLiar("banned peer " + run.liarId + " .*" + offence);
        const QRegularExpression offenceText(offence);
        for (const Peer* peer : run.honest()) {
            for (const QJsonObject& epoch : readJsonLines(peer->dir + "/epochs.jsonl")) {
                // heavy-state: no honest peer takes a state round the liar was in, as its own span's mean
                // holds its parameters of 0.5 under its weight of 10^12, whether that mean came before or
                // after its part showed the offence. (A negative-moments liar's mean holds honest
                // parameters where its span has no moments, and is refused by the floors where it has.)
                bool liarInGroup = false;
                for (const QJsonValue member : epoch["members"].toArray())
                    liarInGroup = liarInGroup || member["id"].toString() == run.liarId;
                QVERIFY2(
                    attack != "heavy-state" || !(liarInGroup && epoch["parameters_averaged"].toBool()),
                    qPrintable(QStringLiteral("%1 took the state round of epoch %2, which the liar was in")
                                   .arg(peer->dir)
                                   .arg(epoch["epoch"].toInteger())));
                for (const QJsonValue problem : epoch["problems"].toArray()) {
                    // The liar's parts never reach a mean that a member would have to refuse.
                    QVERIFY2(!problem.toString().contains("the averaged state was refused"),
                             qPrintable(peer->dir + ": " + problem.toString()));
                    if (offenceText.match(problem.toString()).hasMatch())
                        ++refused;
                }
            }
            if (banOfLiar.match(readText(peer->dir + "/log.err")).hasMatch())
                ++banned;
        }
        QVERIFY2(banned > 0, "no honest volunteer named and banned the liar");
        QVERIFY2(refused > 0, "no state round refused the liar's parts");
    }

    // Admitted is not trusted, row 12: a volunteer that, as an aggregator, sends each member other averages
    // of its span, each under a valid seal of what that member got. Every member passes its seals on to the
    // aggregators, and an honest one that holds two different seals of the liar's span bans it with them as
    // proof; the honest volunteers finish with equal parameters (a state round every epoch brings back
    // together what the round of the lie parted). Without the comparison of seals nobody bans it and the
    // loss climbs.
    void aVolunteerGivingMembersDifferentAveragesIsBanned() {
        const LiarRun run = runWithALiar("equivocate", "equivocate", "384", "1");
        if (QTest::currentTestFailed())
            return;
        const QRegularExpression banOfLiar("banned peer " + run.liarId +
                                           " .*signed two different averages of span");
        int banned = 0;
        for (const Peer* peer : run.honest())
            if (banOfLiar.match(readText(peer->dir + "/log.err")).hasMatch())
                ++banned;
        QVERIFY2(banned > 0, "no honest volunteer banned the liar with the proof of its seals");
        // Powerless after its first lie: the loss stays where it began (without the seals' comparison the
        // liar stays in every group and its averages took the loss from 11.07 to 63.8 by step 3).
        // The first loss is v's first averaged one: a volunteer that started behind loads a state first, and
        // that record has no loss.
        std::vector<QJsonObject> epochs = readJsonLines(run.v.dir + "/epochs.jsonl");
        std::erase_if(epochs, [](const QJsonObject& epoch) { return !(epoch["loss"].toDouble() > 0.0); });
        QVERIFY2(epochs.size() >= 2, qPrintable(epochHistory(run.v)));
        QVERIFY2(epochs.back()["loss"].toDouble() < 1.1 * epochs.front()["loss"].toDouble(),
                 qPrintable(epochHistory(run.v)));
    }

    // Row 9, in a run: a volunteer that, as a leader, declares the shortest gather (so that it leads) and
    // gives each member another plan, each valid on its own. Every member's parts misfit every other's
    // plan: the members look for a group again, keeping their gradient, and no longer follow that leader;
    // nobody is banned (no member can prove who lied). Without that, v and w each stepped with their own
    // gradient whenever it led, and ended with different parameters (no state round before step 4).
    void aLeaderGivingMembersDifferentPlansIsLeftBehind() {
        const LiarRun run = runWithALiar("split-plans", "split-plans", "384", "5");
        if (QTest::currentTestFailed())
            return;
        int named = 0;
        for (const Peer* peer : run.honest())
            if (readText(peer->dir + "/log.err").contains("leader " + run.liarId + " gave this peer"))
                ++named;
        // The liar leads only where it declared first and was followed: in a run where it never led (a slow
        // start), there was nothing to leave.
        if (named == 0)
            qWarning("the liar led no group of an honest peer in this run: the defence was not exercised");
    }

    // (i) Admitted is not trusted: a volunteer lies about its progress, and the honest volunteers still
    // finish every step with equal parameters, their epochs as large as the honest samples make them.
    // inflated-samples: it claims 10^12 samples in its records, on joining and as its gradient's weight,
    // and looks for groups when its real batch is due, with the honest peers, so that its gradient reaches
    // them. Without the progress records' bound (ProgressAggregator), its record ends every epoch after a
    // micro-batch; without the weight cap (WeightBounds::countedAtMost), its gradient is the group's mean.
    // future-epoch: its records claim an epoch two ahead of its own. Without the epoch quorum every honest
    // peer thinks itself behind, looks for a newer state nobody has, and never forms a group again.
    void aVolunteerLyingAboutItsProgressIsBounded_data() {
        QTest::addColumn<QString>("attack");
        QTest::newRow("inflated-samples") << "inflated-samples";
        QTest::newRow("future-epoch") << "future-epoch";
        // `always-ready` (a liar that claims and believes 10^12 samples, always looking for a group) is not a
        // row: honest trainers still pair with it now and then and the run's end depends on the order in
        // which they look (docs/security.md); the attack stays in sahaj-node for the test to come.
    }
    void aVolunteerLyingAboutItsProgressIsBounded() {
        QFETCH(QString, attack);
        const int target = 3072;
        const LiarRun run = runWithALiar("progress-" + attack, attack, QString::number(target), "1");
        if (QTest::currentTestFailed())
            return;
        const QString log = readText(run.v.dir + "/log.err") + readText(run.w.dir + "/log.err");
        if (attack == "future-epoch") {
            QVERIFY2(log.contains("peer " + run.liarId + " claims epoch"), "nobody named the liar's claim");
            return;
        }
        // Row 6: at every honest aggregator, the liar's gradient counted for at most eight times the largest
        // honest member's; it claimed 10^12. The cap is twice the group's lower median claim, each claim as
        // its record estimates it at this aggregator's round start: a member that handed over earlier
        // stopped counting then, and its estimate runs on at its rate until this round starts (seen: 1.55
        // times the weight it sent, at an aggregator that started 7 s late after looking for another group).
        int capped = 0;
        // Row 4: the honest volunteers' samples in each epoch they averaged together: the liar's record
        // counts for at most twice the median contributor's, so they fill a good part of the batch.
        std::map<qint64, double> honestSamples;
        for (const Peer* peer : {&run.v, &run.w})
            for (const QJsonObject& epoch : readJsonLines(peer->dir + "/epochs.jsonl")) {
                if (epoch["state_loaded"].toBool())
                    continue;
                honestSamples[epoch["epoch"].toInteger()] += epoch["local_samples"].toDouble();
                double liar = -1.0;
                double honest = 0.0;
                for (const QJsonValue member : epoch["members"].toArray()) {
                    const double counted = member["counted"].toDouble();
                    if (member["id"].toString() == run.liarId)
                        liar = counted;
                    else
                        honest = std::max(honest, counted);
                }
                if (liar < 0.0)
                    continue; // not in this group, or its parts did not reach this aggregator
                // A group whose honest members had no samples (each joined at once after a step apart or a
                // state load) averages the liar's gradient alone, whatever weight it counts for: the cap
                // bounds its say against honest gradients, and there were none (docs/security.md).
                if (honest <= 0.0)
                    continue;
                QVERIFY2(
                    liar <= 8.0 * honest,
                    qPrintable(QStringLiteral("%1, epoch %2: the liar counted %3, honest members at most %4")
                                   .arg(peer->dir)
                                   .arg(epoch["epoch"].toInteger())
                                   .arg(liar)
                                   .arg(honest)));
                ++capped;
            }
        // Whether the liar's gradient reaches an honest aggregator at all is a race the liar often loses:
        // the honest peers count its claim as twice the median contributor's, so their batch fills before
        // its own estimate says, and it catches up by downloading their state instead of averaging. The cap
        // itself is tested in tst_weight_bounds; here it is checked wherever the liar's parts arrived.
        if (capped == 0)
            qWarning("the liar's gradient reached no honest aggregator in this run: the weight cap was not "
                     "exercised between processes");
        else
            QVERIFY2(log.contains("of peer " + run.liarId + " as "),
                     "no honest aggregator named the liar's weight");
        double total = 0.0;
        for (const auto& [epoch, samples] : honestSamples)
            total += samples;
        const double mean = total / static_cast<double>(honestSamples.size());
        QVERIFY2(
            mean >= target / 4.0,
            qPrintable(QStringLiteral("the honest volunteers averaged %1 samples an epoch, of a batch of %2")
                           .arg(mean)
                           .arg(target)));
    }

private:
    // A coordinator, two honest volunteers v and w and one liar x with `--attack attack`, in a run of their
    // own (`target` samples a batch, the state averaged every `averageEvery` epochs), until v and w reach
    // step 4 with equal parameters and nobody honest is banned. The caller checks QTest::currentTestFailed.
    struct LiarRun {
        Peer coordinator, v, w, liar;
        QString liarId;
        std::vector<const Peer*> honest() const { return {&v, &w, &coordinator}; }
    };
    LiarRun runWithALiar(const QString& name, const QString& attack, const QString& target,
                         const QString& averageEvery) {
        LiarRun run;
        [&] {
            const QString manifest = dir_.filePath(name + ".json");
            const auto init = initTinyRun(manifest, "collab-" + name, corpus_, tokenizer_, target, "0.01",
                                          "2", averageEvery);
            QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
            const QString join = dir_.filePath(name + ".join");
            const QString bootstrap =
                startCoordinator(run.coordinator, dir_.filePath("coordinator-" + name), 1000, {}, manifest);
            QVERIFY(!bootstrap.isEmpty());
            run.v = startVolunteer("v-" + name, bootstrap, 4, {}, {}, join);
            run.w = startVolunteer("w-" + name, bootstrap, 4, {}, {}, join);
            run.liar = startVolunteer("x-" + name, bootstrap, 4, {"--attack", attack}, {}, join);
            const bool finished = finishNodes({&run.v, &run.w}, 600000);
            stopNode(run.liar);
            stopNode(run.coordinator);
            // What an honest volunteer said last, should it stop short (seen once in CI: one ended at epoch
            // 0).
            for (const Peer* peer : {&run.v, &run.w})
                if (!finished || finalEpoch(*peer) != 4)
                    qWarning("%s ended at epoch %lld; its log ends: %s", qPrintable(peer->dir),
                             static_cast<long long>(finalEpoch(*peer)),
                             qPrintable(readText(peer->dir + "/log.err").right(2000)));
            QVERIFY2(finished, "the honest volunteers did not reach step 4");
            QCOMPARE(finalEpoch(run.v), 4);
            QCOMPARE(finalEpoch(run.w), 4);
            compareFinalParameters(run.v, run.w);
            if (QTest::currentTestFailed())
                return;
            for (const QJsonObject& event : readJsonLines(run.liar.dir + "/log.out"))
                if (event["event"] == "joined")
                    run.liarId = event["peer"].toString();
            QVERIFY(!run.liarId.isEmpty());
            // Whoever is banned, it is the liar.
            const QRegularExpression anyBan("banned peer ([0-9a-f]+)");
            for (const Peer* peer : run.honest())
                for (auto bans = anyBan.globalMatch(readText(peer->dir + "/log.err")); bans.hasNext();)
                    QCOMPARE(bans.next().captured(1), run.liarId);
        }();
        return run;
    }
};

QTEST_GUILESS_MAIN(TestCollaborationProcesses)
#include "tst_collaboration_processes.moc"
