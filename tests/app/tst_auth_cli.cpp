// Runs the real sahaj-node for `auth add-user` and `auth add-invites`, then reads what it wrote with the
// library the coordinator uses: the files it makes are the files that admit people.
#include "core/security/AllowList.h"
#include "core/security/InviteList.h"
#include "tests/common/NodeProcess.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using sahaj::security::AllowList;
using sahaj::security::InviteList;
using sahaj::test::NodeRun;
using sahaj::test::runNode;

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
};

QTEST_GUILESS_MAIN(TestAuthCli)
#include "tst_auth_cli.moc"
