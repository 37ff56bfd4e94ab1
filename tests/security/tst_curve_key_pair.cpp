// The CURVE key pair: the X25519 key file (create, reload, refuse bad files untouched), and agreement with
// libzmq, which derives public keys and runs the CURVE handshake with the raw keys we hand it.
#include "core/security/CurveKeyPair.h"
#include "tests/common/SecretFileChecks.h"

#include <QTemporaryDir>
#include <QTest>

#include <zmq.hpp>

#include <stdexcept>

using sahaj::security::CurveKeyPair;

namespace {

// RFC 7748 section 6.1: Alice's X25519 private key 77076d...2c2a as PKCS#8 (the 16-byte DER prefix
// 302e020100300506032b656e04220420 followed by the key), and her public key.
const QByteArray kRfc7748Pem = "-----BEGIN PRIVATE KEY-----\n"
                               "MC4CAQAwBQYDK2VuBCIEIHcHbQpzGKV9PBbBclGyZkXfTC+H68CZKrF3+6UduSwq\n"
                               "-----END PRIVATE KEY-----\n";
const QByteArray kRfc7748SecretHex = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
const QByteArray kRfc7748PublicHex = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";

// The Z85 text ZeroMQ's key functions take (40 characters for 32 bytes).
QByteArray z85(const QByteArray& raw) {
    char text[41] = {};
    if (!zmq_z85_encode(text, reinterpret_cast<const uint8_t*>(raw.constData()),
                        static_cast<size_t>(raw.size())))
        qFatal("zmq_z85_encode failed");
    return QByteArray(text);
}

// libzmq's own derivation of the public key from a raw secret key.
QByteArray zmqPublicKeyOf(const QByteArray& secret) {
    char publicText[41] = {};
    if (zmq_curve_public(publicText, z85(secret).constData()) != 0)
        qFatal("zmq_curve_public failed: %s", zmq_strerror(zmq_errno()));
    uint8_t raw[32];
    if (!zmq_z85_decode(raw, publicText))
        qFatal("zmq_z85_decode failed");
    return QByteArray(reinterpret_cast<const char*>(raw), sizeof raw);
}

} // namespace

class TestCurveKeyPair : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(zmq_has("curve"), "this libzmq is built without CURVE"); }

    void keyFileKeepsTheRules() {
        sahaj::test::checkKeyFileRules(
            CurveKeyPair::kKeyFileName, "CURVE key file", CurveKeyPair::loadOrCreate,
            [](const CurveKeyPair& keys) { return keys.publicKey() + keys.secretKey(); });
    }

    void keysHaveTheSizeZeroMqTakes() {
        const CurveKeyPair keys = CurveKeyPair::generate();
        QCOMPARE(keys.publicKey().size(), CurveKeyPair::kKeySize);
        QCOMPARE(keys.secretKey().size(), CurveKeyPair::kKeySize);
        QVERIFY(CurveKeyPair::generate().publicKey() != keys.publicKey());
    }

    void matchesRfc7748TestVector() {
        QTemporaryDir dir;
        sahaj::test::writeFileWithPermissions(dir, CurveKeyPair::kKeyFileName, kRfc7748Pem);
        const CurveKeyPair keys = CurveKeyPair::loadOrCreate(dir.path());
        QCOMPARE(keys.secretKey().toHex(), kRfc7748SecretHex);
        QCOMPARE(keys.publicKey().toHex(), kRfc7748PublicHex);
    }

    void libzmqDerivesTheSamePublicKey() {
        QCOMPARE(zmqPublicKeyOf(QByteArray::fromHex(kRfc7748SecretHex)).toHex(), kRfc7748PublicHex);
        for (int i = 0; i < 8; ++i) {
            const CurveKeyPair keys = CurveKeyPair::generate();
            QCOMPARE(zmqPublicKeyOf(keys.secretKey()), keys.publicKey());
        }
    }

    void keysCarryACurveHandshake() {
        const CurveKeyPair server = CurveKeyPair::generate();
        const CurveKeyPair client = CurveKeyPair::generate();
        zmq::context_t context;
        zmq::socket_t reply(context, zmq::socket_type::rep);
        reply.set(zmq::sockopt::curve_server, 1);
        reply.set(zmq::sockopt::curve_secretkey, zmq::const_buffer(server.secretKey().constData(), 32));
        reply.set(zmq::sockopt::linger, 0);
        reply.set(zmq::sockopt::rcvtimeo, 10000);
        reply.bind("tcp://127.0.0.1:*");
        zmq::socket_t request(context, zmq::socket_type::req);
        request.set(zmq::sockopt::curve_serverkey, zmq::const_buffer(server.publicKey().constData(), 32));
        request.set(zmq::sockopt::curve_publickey, zmq::const_buffer(client.publicKey().constData(), 32));
        request.set(zmq::sockopt::curve_secretkey, zmq::const_buffer(client.secretKey().constData(), 32));
        request.set(zmq::sockopt::linger, 0);
        request.set(zmq::sockopt::rcvtimeo, 10000);
        request.connect(reply.get(zmq::sockopt::last_endpoint));

        request.send(zmq::str_buffer("ping"), zmq::send_flags::none);
        zmq::message_t received;
        QVERIFY2(reply.recv(received), "no message through the CURVE connection");
        QCOMPARE(received.to_string(), std::string("ping"));
        reply.send(zmq::str_buffer("pong"), zmq::send_flags::none);
        QVERIFY2(request.recv(received), "no reply through the CURVE connection");
        QCOMPARE(received.to_string(), std::string("pong"));
    }

    void ed25519KeyFileIsAClearError() {
        sahaj::test::checkKeyFileRefused(CurveKeyPair::kKeyFileName, sahaj::test::kRfc8032Ed25519Pem,
                                         "holds a key of type ED25519; a CURVE key is an X25519 key",
                                         CurveKeyPair::loadOrCreate);
    }
};

QTEST_GUILESS_MAIN(TestCurveKeyPair)
#include "tst_curve_key_pair.moc"
