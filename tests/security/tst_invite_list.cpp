// Invite codes: single use, stored only as hashes, state kept across reloads, malformed files refused with
// their line.
#include "core/security/InviteList.h"
#include "tests/common/SecretFileChecks.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>

using sahaj::security::InviteList;
using sahaj::test::errorOf;
using sahaj::test::readBytes;

namespace {

QByteArray sha256Hex(const QString& code) {
    const QByteArray bytes = QByteArray::fromHex(code.toLatin1().replace("-", ""));
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

const QByteArray kHash = QByteArray(64, 'a');

} // namespace

class TestInviteList : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void codesAreRandomGroupedHexAndStoredAsHashes() {
        QTemporaryDir dir;
        const QString path = dir.filePath("invites.txt");
        const QStringList codes = InviteList::addInvites(path, 5);
        QCOMPARE(codes.size(), 5);
        QCOMPARE(QSet<QString>(codes.begin(), codes.end()).size(), 5);
        const QRegularExpression shape("^[0-9a-f]{4}(-[0-9a-f]{4}){7}$");
        const QByteArray file = readBytes(path);
        for (const QString& code : codes) {
            QVERIFY2(shape.match(code).hasMatch(), qPrintable(code));
            QVERIFY(!file.contains(code.toLatin1()));
            QVERIFY(!file.contains(code.toLatin1().replace("-", "")));
            QVERIFY2(file.contains(sha256Hex(code) + " unused\n"), file.constData());
        }
        QCOMPARE(InviteList::open(path).unusedCount(), 5);
        sahaj::test::checkOwnerOnlyAndAlone(dir.path(), "invites.txt");
    }

    void aCodeWorksOnce() {
        QTemporaryDir dir;
        const QString path = dir.filePath("invites.txt");
        const QStringList codes = InviteList::addInvites(path, 2);
        const InviteList list = InviteList::open(path);
        QVERIFY(list.redeem(codes[0]));
        // The file says "used" already: a second redemption fails, here and in another process's view.
        QVERIFY(readBytes(path).contains(sha256Hex(codes[0]) + " used\n"));
        QVERIFY(!list.redeem(codes[0]));
        QVERIFY(!InviteList::open(path).redeem(codes[0]));
        QCOMPARE(list.unusedCount(), 1);
        QVERIFY(list.redeem(codes[1]));
        QCOMPARE(list.unusedCount(), 0);
        sahaj::test::checkOwnerOnlyAndAlone(dir.path(), "invites.txt");
    }

    void stateSurvivesReloadAndLaterAdditions() {
        QTemporaryDir dir;
        const QString path = dir.filePath("invites.txt");
        const QStringList first = InviteList::addInvites(path, 2);
        const InviteList running = InviteList::open(path); // e.g. a coordinator, open the whole time
        QVERIFY(running.redeem(first[0]));
        const QStringList added = InviteList::addInvites(path, 1); // added while it runs
        QVERIFY(running.redeem(added[0]));
        QVERIFY(!running.redeem(first[0]));

        const InviteList reloaded = InviteList::open(path);
        QVERIFY(!reloaded.redeem(first[0]));
        QVERIFY(!reloaded.redeem(added[0]));
        QCOMPARE(reloaded.unusedCount(), 1);
        QVERIFY(reloaded.redeem(first[1]));
    }

    void codesAreReadForgivingly() {
        QTemporaryDir dir;
        const QString path = dir.filePath("invites.txt");
        const QStringList codes = InviteList::addInvites(path, 1);
        const QString typed = " " + codes[0].toUpper().replace("-", " ") + "\n";
        QVERIFY(InviteList::open(path).redeem(typed));
    }

    void unknownAndMisspeltCodesFail() {
        QTemporaryDir dir;
        const QString path = dir.filePath("invites.txt");
        const QStringList codes = InviteList::addInvites(path, 1);
        const InviteList list = InviteList::open(path);
        const QByteArray before = readBytes(path);
        QVERIFY(!list.redeem("0000-0000-0000-0000-0000-0000-0000-0000"));
        QVERIFY(!list.redeem(codes[0].chopped(1)));
        QVERIFY(!list.redeem(codes[0] + "0"));
        QVERIFY(!list.redeem(codes[0].chopped(1) + "g"));
        QVERIFY(!list.redeem(""));
        QVERIFY(!list.redeem(QString::fromLatin1(sha256Hex(codes[0])))); // the stored hash is not a code
        QCOMPARE(readBytes(path), before);
        QVERIFY(list.redeem(codes[0]));
    }

    void malformedFilesNameTheLine_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        const QString expected = "expected '<SHA-256 as 64 lowercase hex digits> unused|used'";
        QTest::newRow("no state") << ("# invites\n" + kHash + "\n") << "line 2: " + expected;
        QTest::newRow("bad state") << (kHash + " spent\n") << "line 1: " + expected;
        QTest::newRow("short hash") << (kHash.left(63) + " unused\n") << "line 1: " + expected;
        QTest::newRow("upper case hash") << (kHash.toUpper() + " unused\n") << "line 1: " + expected;
        QTest::newRow("extra field") << (kHash + " unused 2024\n") << "line 1: " + expected;
        QTest::newRow("a code in clear")
            << QByteArray("1f0c-9a2e-0000-0000-0000-0000-0000-0000 unused\n") << "line 1: " + expected;
        QTest::newRow("duplicate") << (kHash + " unused\n\n" + kHash + " used\n")
                                   << "line 3: the same code is already listed on line 1";
    }
    void malformedFilesNameTheLine() {
        sahaj::test::checkMalformedListRefused("invites.txt", "invite list", InviteList::open,
                                               [](const QString& path) { InviteList::addInvites(path, 1); });
    }

    void missingFileAndBadCountsAreErrors() {
        QTemporaryDir dir;
        QVERIFY(
            errorOf([&] { InviteList::open(dir.filePath("none.txt")); }).contains("none.txt does not exist"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, InviteList::addInvites(dir.filePath("i.txt"), 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, InviteList::addInvites(dir.filePath("i.txt"), 10001));
        QVERIFY(!QFile::exists(dir.filePath("i.txt")));
    }
};

QTEST_GUILESS_MAIN(TestInviteList)
#include "tst_invite_list.moc"
