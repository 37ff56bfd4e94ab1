#include "core/security/CurveKeyPair.h"

#include <utility>

namespace sahaj::security {

// PrivateKey has checked the algorithm, so both halves are X25519's kKeySize bytes.
CurveKeyPair::CurveKeyPair(PrivateKey key) : key_(std::move(key)), publicKey_(key_.rawPublicKey()) {}

QByteArray CurveKeyPair::publicKey() const {
    return publicKey_;
}

QByteArray CurveKeyPair::secretKey() const {
    return key_.rawPrivateKey();
}

} // namespace sahaj::security
