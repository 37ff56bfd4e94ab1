// Peer identity: the Ed25519 key file (create, reload, refuse bad files untouched), signatures, peer ids.
#include "core/security/PeerId.h"
#include "core/security/PeerIdentity.h"
#include "tests/common/SecretFileChecks.h"

#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>
#include <unordered_set>

using sahaj::security::PeerId;
using sahaj::security::PeerIdentity;

namespace {

// The public key of RFC 8032 section 7.1, test 1 (sahaj::test::kRfc8032Ed25519Pem), and its signature of
// the empty message.
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

} // namespace

class TestPeerIdentity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keyFileKeepsTheRules() {
        sahaj::test::checkKeyFileRules(PeerIdentity::kKeyFileName, "identity key file",
                                       PeerIdentity::loadOrCreate,
                                       [](const PeerIdentity& identity) { return identity.id().toHex(); });
        QVERIFY(PeerIdentity::generate().id() != PeerIdentity::generate().id());
    }

    void matchesRfc8032TestVector() {
        QTemporaryDir dir;
        sahaj::test::writeFileWithPermissions(dir, PeerIdentity::kKeyFileName,
                                              sahaj::test::kRfc8032Ed25519Pem);
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

    void encryptedOrRsaKeyFilesAreClearErrors() {
        sahaj::test::checkKeyFileRefused(PeerIdentity::kKeyFileName, kEncryptedPem,
                                         "not a readable unencrypted PEM private key",
                                         PeerIdentity::loadOrCreate);
        sahaj::test::checkKeyFileRefused(PeerIdentity::kKeyFileName, kRsaPem,
                                         "holds a key of type RSA; a Sahaj identity is an Ed25519 key",
                                         PeerIdentity::loadOrCreate);
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
