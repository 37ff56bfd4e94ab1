// Access tokens: the canonical encoding (checked against an independent encoder written here), every kind
// of malformation, signatures that break on any changed byte, run binding, validity period and refresh.
#include "core/security/AccessToken.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/TestFiles.h"

#include <QTest>
#include <QtEndian>

#include <limits>
#include <stdexcept>

using sahaj::security::AccessToken;
using sahaj::security::PeerId;
using sahaj::security::PeerIdentity;
using sahaj::test::errorOf;

namespace {

constexpr qint64 kIssued = 1'700'000'000;
constexpr qint64 kExpires = kIssued + 3600;

QByteArray lengthPrefixed(const QByteArray& bytes) {
    char length[4];
    qToBigEndian(static_cast<quint32>(bytes.size()), length);
    return QByteArray(length, 4) + bytes;
}

QByteArray int64Bytes(qint64 value) {
    QByteArray bytes(8, Qt::Uninitialized);
    qToBigEndian(value, bytes.data());
    return bytes;
}

// The token layout written out by hand, with each field's bytes given raw so that malformed values can be
// built; `signature` follows the fields unprefixed.
struct RawToken {
    QByteArray runId = "bn-sahajbert-1";
    QByteArray username = "rahim.k@example";
    QByteArray peer = QByteArray(32, '\x11');
    QByteArray curve = QByteArray(32, '\x22');
    QByteArray role = QByteArray(1, '\x01');
    QByteArray issued = int64Bytes(kIssued);
    QByteArray expires = int64Bytes(kExpires);
    QByteArray signature = QByteArray(64, '\x33');

    QByteArray fields() const {
        return "sahaj-token-v1" + lengthPrefixed(runId) + lengthPrefixed(username) + lengthPrefixed(peer) +
               lengthPrefixed(curve) + lengthPrefixed(role) + lengthPrefixed(issued) +
               lengthPrefixed(expires);
    }
    QByteArray bytes() const { return fields() + signature; }
};

} // namespace

class TestAccessToken : public QObject {
    Q_OBJECT

private:
    PeerIdentity organiser_ = PeerIdentity::generate();
    PeerIdentity volunteer_ = PeerIdentity::generate();
    QByteArray curveKey_ =
        QByteArray::fromHex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");

    AccessToken issue(qint64 issued = kIssued, qint64 expires = kExpires) const {
        return AccessToken::issue("bn-sahajbert-1", "rahim.k@example", volunteer_.id(), curveKey_,
                                  AccessToken::Role::Client, issued, expires, organiser_);
    }

private Q_SLOTS:
    void encodingIsTheDocumentedLayout() {
        const AccessToken token = issue();
        RawToken expected;
        expected.peer = volunteer_.id().bytes();
        expected.curve = curveKey_;
        expected.signature = token.signature();
        QCOMPARE(token.toBytes().toHex(), expected.bytes().toHex());
        // The signature covers exactly the encoded fields.
        QVERIFY(PeerIdentity::verify(organiser_.id(), expected.fields(), token.signature()));
    }

    void roundTripKeepsEveryField() {
        const AccessToken token = issue();
        const AccessToken parsed = AccessToken::fromBytes(token.toBytes());
        QCOMPARE(parsed.runId(), QString("bn-sahajbert-1"));
        QCOMPARE(parsed.username(), QString("rahim.k@example"));
        QCOMPARE(parsed.peer(), volunteer_.id());
        QCOMPARE(parsed.curvePublicKey(), curveKey_);
        QCOMPARE(parsed.role(), AccessToken::Role::Client);
        QCOMPARE(parsed.issuedAt(), kIssued);
        QCOMPARE(parsed.expiresAt(), kExpires);
        QCOMPARE(parsed.toBytes(), token.toBytes());
        QCOMPARE(parsed.check(organiser_.id(), "bn-sahajbert-1", kIssued + 10), QString());

        for (const auto role :
             {AccessToken::Role::Node, AccessToken::Role::Aux, AccessToken::Role::Coordinator}) {
            const AccessToken other =
                AccessToken::issue("r", "u", volunteer_.id(), curveKey_, role, 0, 1, organiser_);
            QCOMPARE(AccessToken::fromBytes(other.toBytes()).role(), role);
        }
        // Non-ASCII run ids are UTF-8 on the wire.
        const AccessToken bengali = AccessToken::issue("সহজ", "u", volunteer_.id(), curveKey_,
                                                       AccessToken::Role::Node, 0, 1, organiser_);
        QCOMPARE(AccessToken::fromBytes(bengali.toBytes()).runId(), QString("সহজ"));
    }

    void malformedTokensAreRefusedPrecisely_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const RawToken good;
        QTest::newRow("empty") << QByteArray() << "truncated in the magic";
        QTest::newRow("truncated magic") << QByteArray("sahaj-tok") << "truncated in the magic";
        QTest::newRow("wrong magic") << ("sahaj-token-v2" + good.bytes().mid(14)) << "wrong magic";
        QTest::newRow("other data") << QByteArray("GET / HTTP/1.1\r\n") << "wrong magic";
        QTest::newRow("truncated length")
            << good.bytes().left(16) << "truncated in the length of the run id field";
        QTest::newRow("truncated field") << good.bytes().left(20) << "truncated in the run id field";
        QTest::newRow("truncated expiry") << good.fields().chopped(1) << "truncated in the expires-at field";
        QTest::newRow("no signature") << good.fields() << "truncated in the signature (0 bytes, 64 expected)";
        QTest::newRow("short signature") << good.bytes().chopped(1) << "truncated in the signature (63 bytes";
        QTest::newRow("trailing bytes") << (good.bytes() + "xy") << "2 trailing bytes after the signature";
        QTest::newRow("too large") << (good.bytes() + QByteArray(1024, 'x')) << "more than the 1024 allowed";

        RawToken t = good;
        t.runId = QByteArray(129, 'r');
        QTest::newRow("run id over limit")
            << t.bytes() << "the run id field is 129 bytes, over its limit of 128";
        t = good;
        t.runId = QByteArray();
        QTest::newRow("empty run id") << t.bytes() << "the run id is empty";
        t = good;
        t.runId = "bad\xff\xfe";
        QTest::newRow("run id not utf-8") << t.bytes() << "the run id is not UTF-8";
        t = good;
        t.username = QByteArray(65, 'u');
        QTest::newRow("user name over limit")
            << t.bytes() << "the user name field is 65 bytes, over its limit of 64";
        t = good;
        t.username = "rahim k";
        QTest::newRow("user name with space") << t.bytes() << "has a character outside";
        t = good;
        t.username = QByteArray();
        QTest::newRow("empty user name") << t.bytes() << "the user name is empty";
        t = good;
        t.peer = QByteArray(31, 'p');
        QTest::newRow("short peer key") << t.bytes() << "the peer key field is 31 bytes, must be 32";
        t = good;
        t.curve = QByteArray(33, 'c');
        QTest::newRow("long curve key") << t.bytes() << "the CURVE key field is 33 bytes, must be 32";
        t = good;
        t.role = QByteArray(1, '\x04');
        QTest::newRow("bad role") << t.bytes() << "bad role 4";
        t = good;
        t.role = QByteArray(2, '\x00');
        QTest::newRow("two-byte role") << t.bytes() << "the role field is 2 bytes, must be 1";
        t = good;
        t.issued = QByteArray(4, '\x00');
        QTest::newRow("four-byte time") << t.bytes() << "the issued-at field is 4 bytes, must be 8";
        t = good;
        t.expires = int64Bytes(kIssued - 1);
        QTest::newRow("expiry before issue") << t.bytes() << "is not after issued-at";
        t = good;
        t.expires = int64Bytes(kIssued);
        QTest::newRow("zero lifetime") << t.bytes() << "is not after issued-at";
        t = good;
        t.issued = int64Bytes(-5);
        QTest::newRow("negative time") << t.bytes() << "issued-at -5 is outside";
        t = good;
        t.expires = int64Bytes(std::numeric_limits<qint64>::max());
        QTest::newRow("time past year 9999") << t.bytes() << "expires-at 9223372036854775807 is outside";
        t = good;
        QByteArray huge = t.fields();
        huge.replace(14, 4, QByteArray::fromHex("ffffffff"));
        QTest::newRow("huge length") << huge << "the run id field is 4294967295 bytes, over its limit";
    }
    void malformedTokensAreRefusedPrecisely() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QString error;
        try {
            AccessToken::fromBytes(bytes);
        } catch (const std::invalid_argument& e) {
            error = QString::fromUtf8(e.what());
        }
        QVERIFY2(error.startsWith("malformed access token: ") && error.contains(message), qPrintable(error));
    }

    void everyTruncationIsRefused() {
        const QByteArray bytes = issue().toBytes();
        for (qsizetype length = 0; length < bytes.size(); ++length) {
            const QString error = errorOf([&] { AccessToken::fromBytes(bytes.left(length)); });
            QVERIFY2(error.contains("truncated"), qPrintable(QString::number(length) + ": " + error));
        }
    }

    void changingAnyByteBreaksTheToken() {
        const QByteArray bytes = issue().toBytes();
        int parsedButRejected = 0;
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            QByteArray tampered = bytes;
            tampered[i] = static_cast<char>(tampered[i] ^ 0x01);
            try {
                const AccessToken token = AccessToken::fromBytes(tampered);
                const QString reason = token.check(organiser_.id(), token.runId(), kIssued + 10);
                QVERIFY2(reason.startsWith("bad signature"), qPrintable(QString::number(i) + ": " + reason));
                ++parsedButRejected;
            } catch (const std::invalid_argument&) {
                // A change the parser catches first (magic, a length, the role) is refused as well.
            }
        }
        // Most bytes are field content: the signature is what catches them.
        QVERIFY2(parsedButRejected > bytes.size() / 2, qPrintable(QString::number(parsedButRejected)));
    }

    void otherOrganiserIsABadSignature() {
        const QString reason = issue().check(PeerIdentity::generate().id(), "bn-sahajbert-1", kIssued);
        QVERIFY2(reason.startsWith("bad signature"), qPrintable(reason));
        QVERIFY(issue().check(PeerId(), "bn-sahajbert-1", kIssued).startsWith("bad signature"));
    }

    void otherRunIsRefused() {
        const QString reason = issue().check(organiser_.id(), "bn-sahajbert-2", kIssued);
        QVERIFY2(reason.contains("for run 'bn-sahajbert-1', not for run 'bn-sahajbert-2'"),
                 qPrintable(reason));
    }

    void validityAllowsOneMinuteOfClockSkew() {
        const AccessToken token = issue();
        const auto checkAt = [&](qint64 now) { return token.check(organiser_.id(), "bn-sahajbert-1", now); };
        QCOMPARE(checkAt(kIssued), QString());
        QCOMPARE(checkAt(kIssued - 60), QString());
        QVERIFY2(checkAt(kIssued - 61).startsWith("the token is not valid yet"),
                 qPrintable(checkAt(kIssued - 61)));
        QCOMPARE(checkAt(kExpires - 1), QString());
        QCOMPARE(checkAt(kExpires + 59), QString());
        QVERIFY2(checkAt(kExpires + 60).startsWith("the token expired"), qPrintable(checkAt(kExpires + 60)));
        // Extreme clocks are answers, not overflows.
        QVERIFY(checkAt(std::numeric_limits<qint64>::max()).startsWith("the token expired"));
        QVERIFY(checkAt(std::numeric_limits<qint64>::min()).startsWith("the token is not valid yet"));
    }

    void refreshWhenLessThanAThirdIsLeft() {
        const AccessToken token = issue(1000, 1300);
        QVERIFY(!token.needsRefresh(0));
        QVERIFY(!token.needsRefresh(1000));
        QVERIFY(!token.needsRefresh(1200)); // exactly a third left
        QVERIFY(token.needsRefresh(1201));
        QVERIFY(token.needsRefresh(1300));
        QVERIFY(token.needsRefresh(std::numeric_limits<qint64>::max()));
        QVERIFY(!token.needsRefresh(std::numeric_limits<qint64>::min()));
    }

    void issuingRefusesBadFields() {
        const auto issueWith = [&](const QString& run, const QString& user, const QByteArray& curve,
                                   qint64 issued, qint64 expires) {
            return errorOf([&] {
                AccessToken::issue(run, user, volunteer_.id(), curve, AccessToken::Role::Node, issued,
                                   expires, organiser_);
            });
        };
        QVERIFY(issueWith("", "u", curveKey_, 0, 1)
                    .contains("cannot issue an access token: the run id is empty"));
        QVERIFY(issueWith(QString(129, 'r'), "u", curveKey_, 0, 1).contains("run id is 129 bytes"));
        QVERIFY(issueWith("r", "রহিম", curveKey_, 0, 1).contains("has a character outside"));
        QVERIFY(
            issueWith("r", "u", curveKey_.left(31), 0, 1).contains("the CURVE key is 31 bytes, must be 32"));
        QVERIFY(issueWith("r", "u", curveKey_, 5, 5).contains("expires-at 5 is not after issued-at 5"));
        QVERIFY(issueWith("r", "u", curveKey_, -1, 5).contains("issued-at -1 is outside"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 AccessToken::issue("r", "u", volunteer_.id(), curveKey_,
                                                    static_cast<AccessToken::Role>(9), 0, 1, organiser_));
    }
};

QTEST_GUILESS_MAIN(TestAccessToken)
#include "tst_access_token.moc"
