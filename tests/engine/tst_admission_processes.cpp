// Admission end to end, on loopback: a real coordinator (sahaj-node, open policy) and sahaj-intruder
// processes, each carrying one kind of credential. Only a peer with a valid token of this run, issued by
// its organiser to its own keys, gets its DHT records read and its connection accepted; a replayed
// record and a copied token get nowhere.
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/NodePeers.h"
#include "tests/common/TestFiles.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj;
using namespace sahaj::test;

namespace {

const QString kRunId = QStringLiteral("admission-test");

} // namespace

class TestAdmissionProcesses : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString join_;
    QString bootstrap_;
    NodePeer coordinator_;
    NodePeer renewing_; // the volunteers of aVolunteerRenewsItsTokenAndStaysHeard, kept for the next test
    NodePeer turnedAway_;

    const security::PeerIdentity& organiser() {
        static const security::PeerIdentity key =
            security::PeerIdentity::loadOrCreate(dir_.filePath("organiser"));
        return key;
    }

    struct Token {
        QString run = kRunId;
        qint64 issuedOffset = -10;   // seconds from now
        qint64 expiresOffset = 3600; // seconds from now
        bool otherSigner = false;
        bool otherCurveKey = false;
    };

    // A token for the keys in `keysDir` (created there), written to a file; its path.
    QString tokenFile(const QString& keysDir, const Token& spec) {
        const security::PeerIdentity peer = security::PeerIdentity::loadOrCreate(keysDir);
        const QByteArray curveKey = spec.otherCurveKey
                                        ? security::CurveKeyPair::generate().publicKey()
                                        : security::CurveKeyPair::loadOrCreate(keysDir).publicKey();
        const security::PeerIdentity stranger = security::PeerIdentity::generate();
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const QByteArray bytes =
            security::AccessToken::issue(spec.run, "tester", peer.id(), curveKey,
                                         security::AccessToken::Role::Node, now + spec.issuedOffset,
                                         now + spec.expiresOffset, spec.otherSigner ? stranger : organiser())
                .toBytes();
        const QString path = keysDir + "/token";
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    // Runs sahaj-intruder with its keys in a folder of its own; its report.
    QJsonObject intrude(const QString& name, const std::optional<Token>& token, bool replay = false) {
        const QString keys = dir_.filePath(name);
        QDir().mkpath(keys);
        QStringList arguments{"--join", join_, "--coordinator", bootstrap_, "--identity", keys};
        if (token)
            arguments << "--token-file" << tokenFile(keys, *token);
        if (replay)
            arguments << "--replay";
        QProcess process;
        process.start(QStringLiteral(SAHAJ_INTRUDER), arguments);
        if (!process.waitForFinished(240000)) {
            process.kill();
            process.waitForFinished();
            return {};
        }
        const QByteArray out = process.readAllStandardOutput();
        if (process.exitCode() != 0)
            qWarning("%s", process.readAllStandardError().constData());
        return QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
    }

    QString revocations() const { return dir_.filePath("revocations.txt"); }

    static bool logHas(const NodePeer& peer, const QString& suffix, const char* text) {
        QFile log(peer.dir + suffix);
        return log.open(QIODevice::ReadOnly) && log.readAll().contains(text);
    }

    // The peers the coordinator's last status line counts (its own record among them).
    int peersSeen() const {
        int peers = 0;
        for (const QJsonObject& line : readJsonLines(coordinator_.dir + "/log.out"))
            if (line["event"] == "status")
                peers = line["peers"].toInt();
        return peers;
    }

    static QString show(const QJsonObject& report) {
        return QString::fromUtf8(QJsonDocument(report).toJson(QJsonDocument::Compact));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_TEST_DIRS"));
        const QString tokenizer = sampleTokenizerPath();
        const QString manifest = dir_.filePath("run.json");
        const NodeRun init = runNode(
            {"run-init", "--out", manifest, "--run-id", kRunId, "--config", "tiny", "--corpus",
             qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt", "--tokenizer",
             tokenizer, "--target-batch", "1000000", "--coordinator", "127.0.0.1:4600"});
        QVERIFY2(init.status == 0, qPrintable(init.err + init.out));
        join_ = dir_.filePath("run.join");
        coordinator_.dir = dir_.filePath("coordinator");
        QDir().mkpath(coordinator_.dir);
        coordinator_.process =
            launchNode({"coordinator", "--manifest", manifest, "--listen", "127.0.0.1:0", "--state-dir",
                        coordinator_.dir, "--auth", "open", "--threads", "1", "--token-lifetime", "60",
                        "--joins-per-address", "1", "--revocations", revocations()},
                       coordinator_.dir + "/log");
        bootstrap_ = coordinatorAddress(coordinator_.dir + "/log");
        QVERIFY(!bootstrap_.isEmpty());
    }

    void cleanupTestCase() {
        for (NodePeer* peer : {&renewing_, &turnedAway_, &coordinator_})
            if (peer->process)
                stopNode(*peer);
    }

    void anAdmittedPeerIsHeardAndReplaysAndCopiedTokensAreNot() {
        const QJsonObject report = intrude("admitted", Token{}, true);
        QVERIFY2(report["control_visible"].toBool(), qPrintable(show(report)));
        QVERIFY2(report["visible"].toBool() && report["answered"].toBool(), qPrintable(show(report)));
        QVERIFY2(report["replay_ignored"].toBool(), qPrintable(show(report)));
        QVERIFY2(!report["stolen_token_visible"].toBool(), qPrintable(show(report)));
    }

    // Also: the coordinator answers one first token request a minute from an address (--joins-per-address
    // 1), so a second volunteer from the same address is told when to ask again, waits, and is admitted
    // (before, it quit: "too many requests from this address"). Both keep running for the next test.
    void aVolunteerRenewsItsTokenAndStaysHeard() {
        // Tokens here last 60 s; a volunteer asks for a new one when a third is left, so after 75 s it has
        // renewed, and the coordinator still reads its progress (its records carry the new token).
        const auto start = [&](const QString& name) {
            NodePeer volunteer;
            volunteer.dir = dir_.filePath(name);
            QDir().mkpath(volunteer.dir);
            volunteer.process = launchNode({"volunteer", "--manifest", join_, "--coordinator", bootstrap_,
                                            "--identity", volunteer.dir, "--threads", "1", "--batch", "2"},
                                           volunteer.dir + "/log");
            return volunteer;
        };
        renewing_ = start("renewing");
        QTRY_VERIFY_WITH_TIMEOUT(logHas(renewing_, "/log.out", "\"event\":\"joined\""), 60000);
        turnedAway_ = start("turned-away");
        QTRY_VERIFY_WITH_TIMEOUT(logHas(turnedAway_, "/log.err", "token endpoint is busy"), 30000);
        QVERIFY(turnedAway_.process->state() == QProcess::Running);
        QTRY_VERIFY_WITH_TIMEOUT(logHas(renewing_, "/log.err", "renewed the access token"), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(logHas(turnedAway_, "/log.out", "\"event\":\"joined\""), 60000);
        QTest::qWait(35000); // past the first token's expiry
        // The coordinator counts its own record too.
        QTRY_VERIFY_WITH_TIMEOUT(peersSeen() == 3, 30000);
        QVERIFY(renewing_.process->state() == QProcess::Running);
    }

    // The organiser revokes the second volunteer of the test above while both run: the other volunteer and
    // the coordinator refuse it from the coordinator's next publication of the list (every 15 s), its
    // records stop counting, and its next renewal is refused (tokens here last 60 s).
    void aRevokedVolunteerIsRefusedByEveryone() {
        QVERIFY2(renewing_.process && turnedAway_.process, "needs the volunteers of the test above");
        const QString revokedId = security::PeerIdentity::loadOrCreate(turnedAway_.dir).id().toHex();
        QFile list(revocations());
        QVERIFY(list.open(QIODevice::WriteOnly));
        list.write(revokedId.toLatin1() + " # revoked by the test\n");
        list.close();
        const QByteArray revokedLine = revokedId.toLatin1() + " is revoked by the run's organiser";
        QTRY_VERIFY_WITH_TIMEOUT(logHas(renewing_, "/log.err", revokedLine.constData()), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(logHas(coordinator_, "/log.err", revokedLine.constData()), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(peersSeen() == 2, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(logHas(turnedAway_, "/log.err", "the run's organiser revoked this peer"),
                                 90000);
        QVERIFY(!logHas(renewing_, "/log.err", "could not renew"));
    }

    void refusedCredentials_data() {
        QTest::addColumn<bool>("hasToken");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("mayPublish"); // its identity's own valid token: records are its to publish
        QTest::newRow("no token") << false << 0 << false;
        QTest::newRow("expired token") << true << 1 << false;
        QTest::newRow("token for another run") << true << 2 << false;
        QTest::newRow("token signed by another key") << true << 3 << false;
        QTest::newRow("CURVE key the token does not bind") << true << 4 << true;
    }

    void refusedCredentials() {
        QFETCH(bool, hasToken);
        QFETCH(int, kind);
        QFETCH(bool, mayPublish);
        std::optional<Token> token;
        if (hasToken) {
            token = Token{};
            if (kind == 1) {
                token->issuedOffset = -7200;
                token->expiresOffset = -3600;
            }
            if (kind == 2)
                token->run = QStringLiteral("another-run");
            token->otherSigner = kind == 3;
            token->otherCurveKey = kind == 4;
        }
        const QJsonObject report = intrude(QStringLiteral("refused-%1").arg(kind), token);
        QVERIFY2(report["control_visible"].toBool(), qPrintable(show(report)));
        QVERIFY2(!report["answered"].toBool(), qPrintable(show(report)));
        QVERIFY2(report["visible"].toBool() == mayPublish, qPrintable(show(report)));
    }
};

QTEST_GUILESS_MAIN(TestAdmissionProcesses)
#include "tst_admission_processes.moc"
