// Runs the real sahaj-node for `auth add-user`, `auth add-invites` and `auth issue-token`, then reads what
// it wrote with the library the coordinator uses: the files it makes are the files that admit people.
#include "core/security/AccessToken.h"
#include "core/security/AllowList.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/InviteList.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/NodeProcess.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using sahaj::security::AccessToken;
using sahaj::security::AllowList;
using sahaj::security::CurveKeyPair;
using sahaj::security::InviteList;
using sahaj::security::PeerIdentity;
using sahaj::test::NodeRun;
using sahaj::test::runNode;

namespace {

QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestAuthCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(qEnvironmentVariable("SAHAJ_NODE")), "SAHAJ_NODE not set"); }

    void addUserStoresAVerifiableHash() {
        QTemporaryDir dir;
        const QString file = dir.filePath("users.txt");
        NodeRun r = runNode({"auth", "add-user", "--file", file, "--user", "rahim"}, "correct horse\n");
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("rahim"), qPrintable(r.out));
        r = runNode({"auth", "add-user", "--file", file, "--user", "karim"}, "battery staple\r\n");
        QVERIFY2(r.status == 0, qPrintable(r.err));

        const AllowList list = AllowList::load(file);
        QCOMPARE(list.size(), 2);
        QVERIFY(list.verify("rahim", "correct horse"));
        QVERIFY(list.verify("karim", "battery staple")); // the line ending is not part of the password
        QVERIFY(!list.verify("rahim", "correct horse\n"));
    }

    void addInvitesPrintsCodesThatRedeemOnce() {
        QTemporaryDir dir;
        const QString file = dir.filePath("invites.txt");
        const NodeRun r = runNode({"auth", "add-invites", "--file", file, "--count", "3"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QStringList codes = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(codes.size(), 3);
        const InviteList invites = InviteList::open(file);
        QCOMPARE(invites.unusedCount(), 3);
        for (const QString& code : codes) {
            QVERIFY2(QRegularExpression("^[0-9a-f]{4}(-[0-9a-f]{4}){7}$").match(code).hasMatch(),
                     qPrintable(code));
            QVERIFY(invites.redeem(code));
            QVERIFY(!invites.redeem(code));
        }
    }

    void emptyPasswordIsRefused() {
        QTemporaryDir dir;
        const QString file = dir.filePath("users.txt");
        for (const QByteArray& input : {QByteArray(), QByteArray("\n")}) {
            const NodeRun r = runNode({"auth", "add-user", "--file", file, "--user", "rahim"}, input);
            QCOMPARE(r.status, 1);
            QVERIFY2(r.err.contains("no password on standard input"), qPrintable(r.err));
        }
        QVERIFY(!QFile::exists(file));
    }

    void malformedListIsAFailureNamingTheLine() {
        QTemporaryDir dir;
        const QString file = dir.filePath("invites.txt");
        QFile broken(file);
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("# invites\nnot a hash\n");
        broken.close();
        const NodeRun r = runNode({"auth", "add-invites", "--file", file, "--count", "1"});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("line 2"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty()); // no code printed that was not stored
    }

    void mistakesExitWithStatusTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no action") << QStringList{"auth"} << "expected one action";
        QTest::newRow("unknown action")
            << QStringList{"auth", "remove-user", "--file", "f"} << "unknown action 'remove-user'";
        QTest::newRow("missing file")
            << QStringList{"auth", "add-invites", "--count", "2"} << "missing required option --file";
        QTest::newRow("missing count")
            << QStringList{"auth", "add-invites", "--file", "f"} << "missing required option --count";
        QTest::newRow("zero count") << QStringList{"auth", "add-invites", "--file", "f", "--count", "0"}
                                    << "--count must be an integer in [1, 10000]";
        QTest::newRow("missing user")
            << QStringList{"auth", "add-user", "--file", "f"} << "missing required option --user";
        QTest::newRow("bad user") << QStringList{"auth", "add-user", "--file", "f", "--user", "a b"}
                                  << "--user: the user name 'a b' has a character outside";
        QTest::newRow("user with invites")
            << QStringList{"auth", "add-invites", "--file", "f", "--count", "1", "--user", "x"}
            << "--user does not apply to add-invites";
    }
    void mistakesExitWithStatusTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        // Relative paths land in the temporary folder, never in the test's working directory.
        arguments.replaceInStrings(QRegularExpression("^f$"), dir.filePath("f"));
        const NodeRun r = runNode(arguments, "secret\n");
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("f")));
    }

    void issueTokenForAPeerFolderVerifiesWithTheOrganiser() {
        QTemporaryDir dir;
        const PeerIdentity organiser = PeerIdentity::loadOrCreate(dir.filePath("organiser"));
        const PeerIdentity peer = PeerIdentity::loadOrCreate(dir.filePath("peer"));
        const CurveKeyPair peerCurve = CurveKeyPair::loadOrCreate(dir.filePath("peer"));
        const QString file = dir.filePath("token.bin");
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        const NodeRun r = runNode({"auth", "issue-token", "--organiser-key", dir.filePath("organiser"),
                                   "--run", "run-7", "--peer", dir.filePath("peer"), "--user", "rahim",
                                   "--role", "aux", "--valid-seconds", "3600", "--out", file});
        const qint64 after = QDateTime::currentSecsSinceEpoch();
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(peer.id().toHex()) && r.out.contains("aux"), qPrintable(r.out));
        QCOMPARE(r.out.count('\n'), 1);
        QVERIFY2(
            QRegularExpression("until \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ").match(r.out).hasMatch(),
            qPrintable(r.out));
        const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                                QFileDevice::ReadOther | QFileDevice::WriteOther;
        QVERIFY(QFile::permissions(file).testFlag(QFileDevice::ReadOwner));
        QVERIFY(!(QFile::permissions(file) & others));

        const AccessToken token = AccessToken::fromBytes(readFile(file));
        const QString problem = token.check(organiser.id(), "run-7", after);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(!token.check(peer.id(), "run-7", after).isEmpty()); // signed by the organiser, nobody else
        QCOMPARE(token.runId(), QString("run-7"));
        QCOMPARE(token.username(), QString("rahim"));
        QCOMPARE(token.peer(), peer.id());
        QCOMPARE(token.curvePublicKey(), peerCurve.publicKey());
        QCOMPARE(token.role(), AccessToken::Role::Aux);
        QVERIFY(token.issuedAt() >= before && token.issuedAt() <= after);
        QCOMPARE(token.expiresAt() - token.issuedAt(), qint64(3600));
    }

    void issueTokenFromHexKeysUsesTheDefaults() {
        QTemporaryDir dir;
        const PeerIdentity organiser = PeerIdentity::loadOrCreate(dir.filePath("organiser"));
        const PeerIdentity peer = PeerIdentity::generate();
        const CurveKeyPair peerCurve = CurveKeyPair::generate();
        const QString file = dir.filePath("token.bin");
        const NodeRun r = runNode({"auth", "issue-token", "--organiser-key", dir.filePath("organiser"),
                                   "--run", "run-7", "--peer-key", peer.id().toHex().toUpper(), "--curve-key",
                                   QString::fromLatin1(peerCurve.publicKey().toHex()), "--out", file});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const AccessToken token = AccessToken::fromBytes(readFile(file));
        QVERIFY(token.check(organiser.id(), "run-7", token.issuedAt()).isEmpty());
        QCOMPARE(token.peer(), peer.id());
        QCOMPARE(token.curvePublicKey(), peerCurve.publicKey());
        QCOMPARE(token.username(), QString("offline"));
        QCOMPARE(token.role(), AccessToken::Role::Node);
        QCOMPARE(token.expiresAt() - token.issuedAt(), qint64(21600));
    }

    void backdatedShortTokenIsExpired() {
        QTemporaryDir dir;
        const PeerIdentity organiser = PeerIdentity::loadOrCreate(dir.filePath("organiser"));
        const QString file = dir.filePath("token.bin");
        const qint64 issuedAt = QDateTime::currentSecsSinceEpoch() - 3600;
        const NodeRun r =
            runNode({"auth", "issue-token", "--organiser-key", dir.filePath("organiser"), "--run", "run-7",
                     "--peer-key", QString(64, 'a'), "--curve-key", QString(64, 'b'), "--issued-at",
                     QString::number(issuedAt), "--valid-seconds", "10", "--out", file});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("already expired"), qPrintable(r.out));
        const AccessToken token = AccessToken::fromBytes(readFile(file));
        QCOMPARE(token.issuedAt(), issuedAt);
        QCOMPARE(token.expiresAt(), issuedAt + 10);
        // Valid when it was issued, expired now: the backdating is what the test asked for.
        QVERIFY(token.check(organiser.id(), "run-7", issuedAt).isEmpty());
        const QString problem = token.check(organiser.id(), "run-7", QDateTime::currentSecsSinceEpoch());
        QVERIFY2(problem.contains("expired"), qPrintable(problem));
    }

    void issueTokenMistakesExitWithStatusTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        // Placeholders, replaced below: ORG (identity.key only) and PEER (both keys) are key folders, EMPTY
        // an empty folder, ABSENT a missing one, OUT the file that must not appear.
        const QStringList base{"auth",  "issue-token", "--organiser-key", "ORG",
                               "--run", "run-7",       "--out",           "OUT"};
        const QStringList peer{"--peer", "PEER"};
        const QStringList hex{"--peer-key", QString(64, 'a'), "--curve-key", QString(64, 'b')};
        const auto without = [](QStringList list, const QString& option) {
            const qsizetype at = list.indexOf(option);
            list.remove(at, 2);
            return list;
        };
        QTest::newRow("missing organiser key")
            << without(base, "--organiser-key") + peer << "missing required option --organiser-key";
        QTest::newRow("organiser folder absent")
            << QStringList(base).replaceInStrings(QRegularExpression("^ORG$"), "ABSENT") + peer
            << "--organiser-key: no such folder";
        QTest::newRow("organiser folder without key")
            << QStringList(base).replaceInStrings(QRegularExpression("^ORG$"), "EMPTY") + peer
            << "has no identity key file identity.key (keys are never created here)";
        QTest::newRow("peer folder absent")
            << base + QStringList{"--peer", "ABSENT"} << "--peer: no such folder";
        QTest::newRow("peer folder without keys")
            << base + QStringList{"--peer", "EMPTY"} << "has no identity key file identity.key";
        QTest::newRow("peer folder without curve key")
            << base + QStringList{"--peer", "ORG"} << "has no CURVE key file curve.key";
        QTest::newRow("no peer") << base << "missing the peer";
        QTest::newRow("folder and hex") << base + peer + hex << "not both";
        QTest::newRow("peer key alone")
            << base + QStringList{"--peer-key", QString(64, 'a')} << "missing required option --curve-key";
        QTest::newRow("short peer key")
            << base + QStringList{"--peer-key", QString(63, 'a'), "--curve-key", QString(64, 'b')}
            << "--peer-key must be 64 hex digits";
        QTest::newRow("non-hex curve key")
            << base + QStringList{"--peer-key", QString(64, 'a'), "--curve-key", QString(63, 'b') + "g"}
            << "--curve-key must be 64 hex digits";
        QTest::newRow("coordinator role") << base + hex + QStringList{"--role", "coordinator"}
                                          << "--role coordinator is not issued by hand";
        QTest::newRow("unknown role") << base + hex + QStringList{"--role", "admin"}
                                      << "--role must be node, client or aux, got 'admin'";
        QTest::newRow("zero validity") << base + hex + QStringList{"--valid-seconds", "0"}
                                       << "--valid-seconds must be an integer in [1, 31536000]";
        QTest::newRow("validity over a year") << base + hex + QStringList{"--valid-seconds", "31536001"}
                                              << "--valid-seconds must be an integer in [1, 31536000]";
        QTest::newRow("negative issue time")
            << base + hex + QStringList{"--issued-at", "-1"} << "--issued-at must be an integer in [0, ";
        QTest::newRow("bad user") << base + hex + QStringList{"--user", "a b"}
                                  << "--user: the user name 'a b' has a character outside";
        QTest::newRow("long run id") << without(base, "--run") + hex + QStringList{"--run", QString(129, 'r')}
                                     << "--run is 129 bytes, over its limit of 128";
        QTest::newRow("missing out") << without(base, "--out") + hex << "missing required option --out";
        QTest::newRow("out over the organiser key")
            << without(base, "--out") + hex + QStringList{"--out", "ORG/identity.key"} << "is the key file";
        QTest::newRow("option of another action")
            << base + hex + QStringList{"--count", "3"} << "--count does not apply to issue-token";
    }
    void issueTokenMistakesExitWithStatusTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        PeerIdentity::loadOrCreate(dir.filePath("org"));
        PeerIdentity::loadOrCreate(dir.filePath("peer"));
        CurveKeyPair::loadOrCreate(dir.filePath("peer"));
        QVERIFY(QDir(dir.path()).mkdir("empty"));
        const QByteArray organiserKey = readFile(dir.filePath("org/identity.key"));
        arguments.replaceInStrings(QRegularExpression("^ORG"), dir.filePath("org"));
        arguments.replaceInStrings(QRegularExpression("^PEER$"), dir.filePath("peer"));
        arguments.replaceInStrings(QRegularExpression("^EMPTY$"), dir.filePath("empty"));
        arguments.replaceInStrings(QRegularExpression("^ABSENT$"), dir.filePath("absent"));
        arguments.replaceInStrings(QRegularExpression("^OUT$"), dir.filePath("token.bin"));
        const NodeRun r = runNode(arguments);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err + arguments.join(' ')));
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFile::exists(dir.filePath("token.bin")));
        // Nothing created or changed in the key folders: keys are only ever read here.
        QVERIFY(!QFile::exists(dir.filePath("absent")));
        QCOMPARE(QDir(dir.filePath("empty")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList());
        QCOMPARE(QDir(dir.filePath("org")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList{"identity.key"});
        QCOMPARE(readFile(dir.filePath("org/identity.key")), organiserKey);
    }
};

QTEST_GUILESS_MAIN(TestAuthCli)
#include "tst_auth_cli.moc"
