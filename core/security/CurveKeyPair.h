#pragma once

#include "core/security/PrivateKeyFactories.h"

#include <QByteArray>

namespace sahaj::security {

// The installation's CURVE key pair for ZeroMQ's encrypted, authenticated transport. CURVE keys are
// X25519 keys, so OpenSSL (the library that already holds the Ed25519 identity) generates and stores them;
// ZeroMQ takes the raw 32-byte halves (zmq::sockopt::curve_secretkey / curve_publickey). A separate key
// from the identity: the identity signs, this one agrees session keys, and an Ed25519 key is not meant to
// be reused for Diffie-Hellman. Obtained with loadOrCreate(directory) from `directory`/curve.key,
// generate() or fromPem(pem, origin): see PrivateKeyFactories. Movable, not copyable: the secret is held
// once.
class CurveKeyPair : public PrivateKeyFactories<CurveKeyPair> {
public:
    // The size of either half, in raw bytes as ZeroMQ takes them.
    static constexpr qsizetype kKeySize = 32;
    static constexpr const char* kKeyFileName = "curve.key";

    // The public key, kKeySize raw bytes: what peers admit and what a token binds.
    QByteArray publicKey() const;
    // The secret key, kKeySize raw bytes. A fresh copy on each call: hand it to the socket and let it go.
    QByteArray secretKey() const;

private:
    friend class PrivateKeyFactories<CurveKeyPair>;
    // The CURVE key's words in key messages: a new key must be admitted again, which is worth saying.
    static constexpr PrivateKey::Kind kKeyKind{
        "X25519", "X25519", "CURVE key", "CURVE key file",
        "a new CURVE key (the collaboration must then admit the new key)"};

    explicit CurveKeyPair(PrivateKey key);

    PrivateKey key_;
    QByteArray publicKey_; // read once: peers and tokens ask for it often
};

} // namespace sahaj::security
