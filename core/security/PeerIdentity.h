#pragma once

#include "core/security/PeerId.h"
#include "core/security/PrivateKeyFactories.h"

#include <QByteArray>
#include <QByteArrayView>

namespace sahaj::security {

// A peer's Ed25519 key pair: its stable identity on the network (id() is the public key) and the key
// that signs what it publishes. Signing is thread-safe (const, no shared scratch state). Obtained with
// loadOrCreate(directory) from `directory`/identity.key, generate() or fromPem(pem, origin): see
// PrivateKeyFactories. Movable, not copyable: the key is held once.
class PeerIdentity : public PrivateKeyFactories<PeerIdentity> {
public:
    static constexpr const char* kKeyFileName = "identity.key";
    static constexpr qsizetype kSignatureSize = 64;

    const PeerId& id() const { return id_; }

    // The Ed25519 signature (kSignatureSize bytes) of `message`.
    QByteArray sign(QByteArrayView message) const;
    // True when `signature` is `owner`'s valid signature of `message`; false for anything else, including
    // a malformed signature or a public key that is not a curve point. Never throws.
    static bool verify(const PeerId& owner, QByteArrayView message, QByteArrayView signature);

private:
    friend class PrivateKeyFactories<PeerIdentity>;
    // The identity's words in key messages: what deleting its file costs is worth saying.
    static constexpr PrivateKey::Kind kKeyKind{"ED25519", "Ed25519", "Sahaj identity", "identity key file",
                                               "a new identity (other peers will then see a new peer id)"};

    explicit PeerIdentity(PrivateKey key);

    PrivateKey key_;
    PeerId id_;
};

} // namespace sahaj::security
