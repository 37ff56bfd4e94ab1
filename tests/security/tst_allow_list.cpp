// The allowlist: Argon2id entries added, verified, replaced; malformed files refused with their line; the
// file written owner-only and atomically. Tests use a 1 MiB cost: the default's 64 MiB would only be slower.
#include "core/security/AllowList.h"
#include "tests/common/SecretFileChecks.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>

using sahaj::security::AllowList;
using sahaj::test::errorOf;
using sahaj::test::readBytes;

namespace {

const AllowList::Cost kCheap{1, 1024, 1};

// Argon2id of "correct horse" with the salt "saltsaltsaltsalt", t=1, m=1024 KiB, p=1, computed once
// outside this code with libargon2's argon2id_hash_encoded: a fixed entry, independent of addUser.
const QByteArray kRahimHash = "$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$"
                              "RMnlO2yJjUzUJ1vqMJdgdgriWoTT+H4XFqGo/gwMfPA";

} // namespace

class TestAllowList : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void addedUsersVerify() {
        QTemporaryDir dir;
        const QString path = dir.filePath("users.txt");
        AllowList::addUser(path, "rahim", "correct horse", kCheap);
        AllowList::addUser(path, "karim@example.org", "battery staple", kCheap);

        const AllowList list = AllowList::load(path);
        QCOMPARE(list.size(), 2);
        QVERIFY(list.verify("rahim", "correct horse"));
        QVERIFY(list.verify("karim@example.org", "battery staple"));
        QVERIFY(!list.verify("rahim", "battery staple")); // another user's password
        QVERIFY(!list.verify("rahim", "correct horsE"));
        QVERIFY(!list.verify("rahim", "correct horse ")); // no trimming: the bytes are the password
        QVERIFY(!list.verify("rahim", ""));
        QVERIFY(!list.verify("Rahim", "correct horse")); // names are exact
        QVERIFY(!list.verify("nobody", "correct horse"));
    }

    void entriesAreArgon2idWithFreshSalts() {
        QTemporaryDir dir;
        const QString path = dir.filePath("users.txt");
        AllowList::addUser(path, "a", "same password", kCheap);
        AllowList::addUser(path, "b", "same password", kCheap);
        const QList<QByteArray> lines = readBytes(path).split('\n');
        QCOMPARE(lines.size(), 3); // two lines and the final newline
        QVERIFY2(lines[0].startsWith("a:$argon2id$v=19$m=1024,t=1,p=1$"), lines[0].constData());
        QVERIFY2(lines[1].startsWith("b:$argon2id$v=19$m=1024,t=1,p=1$"), lines[1].constData());
        QVERIFY(!readBytes(path).contains("same password"));
        // Equal passwords, different salts: different hashes.
        QVERIFY(lines[0].mid(2) != lines[1].mid(2));
    }

    void verifiesAnEntryMadeElsewhere() {
        // A hand-written file in Argon2's standard encoded form verifies: comments and blank lines allowed.
        QTemporaryDir dir;
        const QString path =
            sahaj::test::writeFile(dir, "users.txt", "# admitted users\n\nrahim:" + kRahimHash + "\n");
        const AllowList list = AllowList::load(path);
        QCOMPARE(list.size(), 1);
        QVERIFY(list.verify("rahim", "correct horse"));
        QVERIFY(!list.verify("rahim", "wrong"));
    }

    void addingAgainReplacesThePasswordAndKeepsOtherLines() {
        QTemporaryDir dir;
        const QString path =
            sahaj::test::writeFile(dir, "users.txt", "# organisers' list\nrahim:" + kRahimHash + "\n");
        AllowList::addUser(path, "karim", "first", kCheap);
        AllowList::addUser(path, "rahim", "new password", kCheap);
        const QList<QByteArray> lines = readBytes(path).split('\n');
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QByteArray("# organisers' list"));
        QVERIFY(lines[1].startsWith("rahim:$argon2id$") && !lines[1].contains(kRahimHash)); // in place
        QVERIFY(lines[2].startsWith("karim:$argon2id$"));

        const AllowList list = AllowList::load(path);
        QCOMPARE(list.size(), 2);
        QVERIFY(list.verify("rahim", "new password"));
        QVERIFY(!list.verify("rahim", "correct horse"));
        QVERIFY(list.verify("karim", "first"));
    }

    void createdFileIsOwnerOnlyWithNoLeftovers() {
        QTemporaryDir dir;
        const QString path = dir.filePath("users.txt");
        AllowList::addUser(path, "rahim", "pw", kCheap);
        sahaj::test::checkOwnerOnlyAndAlone(dir.path(), "users.txt");
        AllowList::addUser(path, "rahim", "pw2", kCheap); // rewriting keeps it owner-only
        sahaj::test::checkOwnerOnlyAndAlone(dir.path(), "users.txt");
    }

    void handWrittenFileOthersCanReadIsAccepted() {
        // Unlike a key file, the list holds only hashes: a file written by hand with a usual umask is read.
        QTemporaryDir dir;
        const QString path =
            sahaj::test::writeFileWithPermissions(dir, "users.txt", "rahim:" + kRahimHash + "\n",
                                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                      QFileDevice::ReadGroup | QFileDevice::ReadOther);
        QVERIFY(AllowList::load(path).verify("rahim", "correct horse"));
    }

    void malformedFilesNameTheLine_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("no colon") << QByteArray("# users\nrahim\n")
                                  << "line 2: expected 'username:<argon2id encoded hash>'";
        QTest::newRow("bad name") << ("rahim k:" + kRahimHash + "\n")
                                  << "line 1: the user name 'rahim k' has a character outside";
        QTest::newRow("empty name") << (":" + kRahimHash + "\n") << "line 1: the user name is empty";
        QTest::newRow("long name") << (QByteArray(65, 'u') + ":" + kRahimHash)
                                   << "line 1: the user name is 65 bytes";
        QTest::newRow("plain text password")
            << QByteArray("rahim:hunter2\n") << "line 1: the hash of user 'rahim' is not an Argon2id";
        QTest::newRow("argon2i hash")
            << ("rahim:" + QByteArray(kRahimHash).replace("argon2id", "argon2i") + "\n")
            << "not an Argon2id encoded hash";
        QTest::newRow("huge memory cost")
            << ("rahim:" + QByteArray(kRahimHash).replace("m=1024", "m=999999999") + "\n")
            << "line 1: the hash of user 'rahim' names a cost out of bounds: memory m=999999999 KiB";
        QTest::newRow("duplicate user")
            << ("rahim:" + kRahimHash + "\nkarim:" + kRahimHash + "\nrahim:" + kRahimHash + "\n")
            << "line 3: user 'rahim' is already listed on line 1";
    }
    void malformedFilesNameTheLine() {
        // Adding a user to a malformed file is refused too, with the same message.
        sahaj::test::checkMalformedListRefused(
            "users.txt", "allowlist", AllowList::load,
            [](const QString& path) { AllowList::addUser(path, "newcomer", "pw", kCheap); });
    }

    void missingFileIsAnError() {
        QTemporaryDir dir;
        const QString error = errorOf([&] { AllowList::load(dir.filePath("none.txt")); });
        QVERIFY2(error.contains("none.txt does not exist"), qPrintable(error));
    }

    void badArgumentsAreRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("users.txt");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AllowList::addUser(path, "rahim", "", kCheap));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AllowList::addUser(path, "bad:name", "pw", kCheap));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AllowList::addUser(path, "", "pw", kCheap));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 AllowList::addUser(path, "rahim", "pw", {0, 1024, 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AllowList::addUser(path, "rahim", "pw", {1, 4, 1}));
        QVERIFY(!QFile::exists(path)); // nothing was written
    }

    void defaultCostIsRfc9106Second() {
        const AllowList::Cost cost;
        QCOMPARE(cost.iterations, 3u);
        QCOMPARE(cost.memoryKiB, 64u * 1024u);
        QCOMPARE(cost.parallelism, 1u);
    }
};

QTEST_GUILESS_MAIN(TestAllowList)
#include "tst_allow_list.moc"
