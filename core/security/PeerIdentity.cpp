#include "core/security/PeerIdentity.h"

#include "core/security/OpenSslHandles.h"
#include "core/security/RuntimeFailure.h"

#include <openssl/err.h>

#include <utility>

namespace sahaj::security {

PeerIdentity::PeerIdentity(PrivateKey key)
    : key_(std::move(key)), id_(PeerId::fromBytes(key_.rawPublicKey())) {}

QByteArray PeerIdentity::sign(QByteArrayView message) const {
    DigestContextHandle context(EVP_MD_CTX_new());
    QByteArray signature(kSignatureSize, Qt::Uninitialized);
    size_t length = static_cast<size_t>(signature.size());
    // Ed25519 is a one-shot scheme: no digest is named, the whole message goes in one call.
    if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key_.evp()) != 1 ||
        EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                       reinterpret_cast<const unsigned char*>(message.data()),
                       static_cast<size_t>(message.size())) != 1 ||
        length != static_cast<size_t>(kSignatureSize))
        failWith(
            QStringLiteral("Ed25519 signing failed: %1").arg(QString::fromStdString(takeOpenSslErrors())));
    return signature;
}

bool PeerIdentity::verify(const PeerId& owner, QByteArrayView message, QByteArrayView signature) {
    if (signature.size() != kSignatureSize)
        return false;
    KeyHandle key(
        EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, owner.raw().data(), owner.raw().size()));
    DigestContextHandle context(EVP_MD_CTX_new());
    const bool valid =
        key && context && EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
        EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                         static_cast<size_t>(signature.size()),
                         reinterpret_cast<const unsigned char*>(message.data()),
                         static_cast<size_t>(message.size())) == 1;
    if (!valid)
        ERR_clear_error(); // a forged signature is an answer, not an error to report later
    return valid;
}

} // namespace sahaj::security
