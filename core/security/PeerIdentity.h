#pragma once

#include "core/security/PeerId.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <memory>

struct evp_pkey_st; // OpenSSL's EVP_PKEY, kept out of this header

namespace sahaj::security {

// A peer's Ed25519 key pair: its stable identity on the network (id() is the public key) and the key
// that signs what it publishes. Signing is thread-safe (const, no shared scratch state).
class PeerIdentity {
public:
    static constexpr const char* kKeyFileName = "identity.key";
    static constexpr qsizetype kSignatureSize = 64;

    // Loads `directory`/identity.key (PEM, PKCS#8, unencrypted), or creates the folder and the key when
    // the file is absent (see IdentityKeyFile: atomic, mode 0600, never replacing). An existing file that
    // is unreadable, corrupt, encrypted, holds another kind of key, or (POSIX) is accessible to group or
    // others throws std::runtime_error naming the file, and is left exactly as it was: losing an identity
    // silently would make the peer a stranger to the collaboration.
    static PeerIdentity loadOrCreate(const QString& directory);
    // A fresh key held in memory only (tests, throwaway nodes).
    static PeerIdentity generate();
    // Parses a PEM private key; `origin` names the source in error messages.
    static PeerIdentity fromPem(QByteArrayView pem, const QString& origin);

    PeerIdentity(PeerIdentity&&) noexcept;
    PeerIdentity& operator=(PeerIdentity&&) noexcept;
    PeerIdentity(const PeerIdentity&) = delete;
    PeerIdentity& operator=(const PeerIdentity&) = delete;
    ~PeerIdentity();

    const PeerId& id() const { return id_; }

    // The Ed25519 signature (kSignatureSize bytes) of `message`.
    QByteArray sign(QByteArrayView message) const;
    // True when `signature` is `owner`'s valid signature of `message`; false for anything else, including
    // a malformed signature or a public key that is not a curve point. Never throws.
    static bool verify(const PeerId& owner, QByteArrayView message, QByteArrayView signature);

private:
    struct KeyFree {
        void operator()(evp_pkey_st* key) const;
    };
    using Key = std::unique_ptr<evp_pkey_st, KeyFree>;

    PeerIdentity(Key key, const QString& origin);
    QByteArray privateKeyPem() const;

    Key key_;
    PeerId id_;
};

} // namespace sahaj::security
