// Peer identity: the Ed25519 key file (create, reload, refuse bad files untouched), signatures, peer ids.
#include "core/security/PeerId.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>
#include <unordered_set>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

using sahaj::security::PeerId;
using sahaj::security::PeerIdentity;
using sahaj::test::errorOf;

namespace {

// RFC 8032 section 7.1, test 1: secret key 9d61b1...7f60 as PKCS#8 (the 16-byte DER prefix
// 302e020100300506032b657004220420 followed by the 32-byte seed), its public key and its signature of
// the empty message.
const QByteArray kRfc8032Pem = "-----BEGIN PRIVATE KEY-----\n"
                               "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
                               "-----END PRIVATE KEY-----\n";
const QString kRfc8032PublicHex = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const QByteArray kRfc8032EmptySignatureHex =
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
    "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";

// `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024`: a valid key of the wrong kind.
const QByteArray kRsaPem = "-----BEGIN PRIVATE KEY-----\n"
                           "MIICeAIBADANBgkqhkiG9w0BAQEFAASCAmIwggJeAgEAAoGBAOIXSMrIsyTVJmYV\n"
                           "ZJFnIMcPbKWsJMMPzp9cWlcGdrH1GV8K1L2LtvdTxu5qXMGK0nELr1Ki6ldB327A\n"
                           "O2WWD3GTYx5WoRFV49GOFSnpWDA7Fi6+j4+t1GbGu/K9MdkFC0mJT7B8Z7P+uwbQ\n"
                           "Rrw1Ig3/8ShvD7qO+2O24EwlImL1AgMBAAECgYBrlgzrgknNEyjslu1+S4bLcsmO\n"
                           "pLXxpIn8R2Qt2UOON0XVdj/52ow8cT9OoIp3BupRJPBO8Ht2/j+mYg9hreC2k+fM\n"
                           "H1zLx1eymduD9j+axUEmh3Vo7sg9IwQMX78u6m4DJfqoe5K0otVlolxM84xd5/hN\n"
                           "iqv/gwVUHZFnu/ozgQJBAPwAI6XKOHjn7hpdHnuoiUuKAshTbwc+nLKlEn4u4UI2\n"
                           "qLgJa5rUGoUmcrLveFKxEf8Omi+tJup5W81PQx5CLUUCQQDlreBQhqM9+8paZukE\n"
                           "4Sz6g+HyOr7IoCp9JwT9juPIs1H/HTRtxfeRb1btmVXYvn8YbRdxEY3jWQKmwDFB\n"
                           "ToHxAkEA1KsZanT6q66wFre3XgyhsYpLRtyCus5wV6NPtAXEPKj8QjRRB10w9GW6\n"
                           "LqBCHycoVOPx44JxcTfx7ZaSwhp/MQJBANa8VyHSj2MPO2SEHM50HNJnZWNMqzz2\n"
                           "CmOSjKbn5m2pwjrrui37zfgKidKA7vNDP569uBH9oJPzj3gJ7sMpPHECQQC/aWCR\n"
                           "mnNG+/9toLUUEc7oNb8a7PmeaZlfMfFCegOnaa08oCkUykV1o4LRotTIru0CgaTt\n"
                           "yI/puz8ZsQGJh590\n"
                           "-----END PRIVATE KEY-----\n";

// `openssl genpkey -algorithm ed25519 -aes-128-cbc -pass pass:sahaj`.
const QByteArray kEncryptedPem = "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                                 "MIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAj/iKkA80Jz7gICCAAw\n"
                                 "DAYIKoZIhvcNAgkFADAdBglghkgBZQMEAQIEECP8NvnQi+h4NTy7lrhX0lQEQE+5\n"
                                 "xKfg7QG1HklS3KmjvUkrsJY/TnFd2gwcL9GpaFEnZ5Ge4p17ZFYSXlZrDCZhuPjS\n"
                                 "Ot43exVQ9B5V325ejyQ=\n"
                                 "-----END ENCRYPTED PRIVATE KEY-----\n";

QByteArray readBytes(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

#ifdef Q_OS_UNIX
unsigned modeOf(const QString& path) {
    struct stat status {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        qFatal("cannot stat %s", qPrintable(path));
    return static_cast<unsigned>(status.st_mode & 0777);
}
#endif

} // namespace

class TestPeerIdentity : public QObject {
    Q_OBJECT

private:
    // An identity.key with `content` in a fresh folder, readable by its owner only.
    static QString writeKeyFile(const QTemporaryDir& dir, const QByteArray& content) {
        const QString path = sahaj::test::writeFile(dir, PeerIdentity::kKeyFileName, content);
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return path;
    }

    // Loading `content` fails with a message naming the file and containing `expected`, and leaves the
    // file byte for byte as it was.
    static void checkRefusedUntouched(const QByteArray& content, const QString& expected) {
        QTemporaryDir dir;
        const QString path = writeKeyFile(dir, content);
        const QString message = errorOf([&] { PeerIdentity::loadOrCreate(dir.path()); });
        QVERIFY2(message.contains(path) && message.contains(expected), qPrintable(message));
        QCOMPARE(readBytes(path), content);
    }

private Q_SLOTS:
    void createsOnceThenReloadsTheSameId() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("data/sahaj"); // missing folders are created
        const PeerIdentity created = PeerIdentity::loadOrCreate(folder);
        const QString path = folder + "/identity.key";
        const QByteArray file = readBytes(path);
        QVERIFY(file.startsWith("-----BEGIN PRIVATE KEY-----\n")); // PKCS#8, unencrypted
        QVERIFY(!created.id().isNull());

        const PeerIdentity reloaded = PeerIdentity::loadOrCreate(folder);
        QCOMPARE(reloaded.id(), created.id());
        QCOMPARE(readBytes(path), file);
        QVERIFY(PeerIdentity::generate().id() != created.id());
    }

    void createdKeyFileIsOwnerOnly() {
#ifdef Q_OS_UNIX
        QTemporaryDir dir;
        PeerIdentity::loadOrCreate(dir.path());
        QCOMPARE(modeOf(dir.filePath("identity.key")), 0600u);
        // No temporary file is left beside it.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList({"identity.key"}));
#else
        QSKIP("file modes are POSIX");
#endif
    }

    void matchesRfc8032TestVector() {
        QTemporaryDir dir;
        writeKeyFile(dir, kRfc8032Pem);
        const PeerIdentity identity = PeerIdentity::loadOrCreate(dir.path());
        QCOMPARE(identity.id().toHex(), kRfc8032PublicHex);
        QCOMPARE(identity.sign(QByteArrayView()).toHex(), kRfc8032EmptySignatureHex);
    }

    void signaturesVerifyAndTamperingFails() {
        const PeerIdentity identity = PeerIdentity::generate();
        const QByteArray message = "epoch 7: 4096 samples";
        const QByteArray signature = identity.sign(message);
        QCOMPARE(signature.size(), PeerIdentity::kSignatureSize);
        QCOMPARE(identity.sign(message), signature); // Ed25519 is deterministic
        QVERIFY(PeerIdentity::verify(identity.id(), message, signature));

        QByteArray otherMessage = message;
        otherMessage[6] = '8';
        QVERIFY(!PeerIdentity::verify(identity.id(), otherMessage, signature));
        QByteArray flipped = signature;
        flipped[10] = static_cast<char>(flipped[10] ^ 0x01);
        QVERIFY(!PeerIdentity::verify(identity.id(), message, flipped));
        QVERIFY(!PeerIdentity::verify(identity.id(), message, signature.chopped(1)));
        QVERIFY(!PeerIdentity::verify(identity.id(), message, QByteArray()));
        QVERIFY(!PeerIdentity::verify(PeerIdentity::generate().id(), message, signature));
        QVERIFY(!PeerIdentity::verify(PeerId(), message, signature)); // all-zero key: not a valid signer
    }

    void corruptKeyFileIsAnErrorAndUntouched() {
        checkRefusedUntouched("not a key at all\n", "not a readable unencrypted PEM private key");
        checkRefusedUntouched(kRfc8032Pem.left(40), "not a readable unencrypted PEM private key");
        checkRefusedUntouched(QByteArray(), "not a readable unencrypted PEM private key");
        checkRefusedUntouched(kEncryptedPem, "not a readable unencrypted PEM private key");
    }

    void rsaKeyFileIsAClearError() {
        checkRefusedUntouched(kRsaPem, "holds a key of type RSA; a Sahaj identity is an Ed25519 key");
    }

    void keyFileOthersCanReadIsRefused() {
#ifdef Q_OS_UNIX
        QTemporaryDir dir;
        PeerIdentity::loadOrCreate(dir.path());
        const QString path = dir.filePath("identity.key");
        const QByteArray before = readBytes(path);
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const QString message = errorOf([&] { PeerIdentity::loadOrCreate(dir.path()); });
        QVERIFY2(message.contains("(mode 0644)") && message.contains("chmod 600 " + path),
                 qPrintable(message));
        QCOMPARE(readBytes(path), before);
        QCOMPARE(modeOf(path), 0644u); // the user fixes it; nothing here changes it
#else
        QSKIP("file modes are POSIX");
#endif
    }

    void keyPathThatIsAFolderIsAnError() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("identity.key"));
        const QString message = errorOf([&] { PeerIdentity::loadOrCreate(dir.path()); });
        QVERIFY2(message.contains("is not a regular file"), qPrintable(message));
    }

    void peerIdsParseCompareAndHash() {
        const PeerId id = PeerId::fromHex(kRfc8032PublicHex);
        QCOMPARE(id.toHex(), kRfc8032PublicHex);
        QCOMPARE(id.shortHex(), QString("d75a9801"));
        QCOMPARE(PeerId::fromHex(kRfc8032PublicHex.toUpper()), id);
        QCOMPARE(PeerId::fromBytes(id.bytes()), id);
        QVERIFY(PeerId().isNull() && !id.isNull());
        QVERIFY(PeerId() < id);

        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PeerId::fromHex(kRfc8032PublicHex.chopped(2)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PeerId::fromHex(kRfc8032PublicHex.chopped(1) + "g"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PeerId::fromBytes(QByteArray(31, 'x')));

        const PeerId other = PeerIdentity::generate().id();
        QCOMPARE(QSet<PeerId>({id, other, id}).size(), 2);
        QCOMPARE(std::unordered_set<PeerId>({id, other, id}).size(), 2u);
    }
};

QTEST_GUILESS_MAIN(TestPeerIdentity)
#include "tst_peer_identity.moc"
