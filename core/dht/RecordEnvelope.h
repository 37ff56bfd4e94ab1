#pragma once

#include "core/security/PeerId.h"

#include <QByteArray>
#include <QByteArrayView>

#include <chrono>
#include <cstdint>
#include <optional>

namespace sahaj::security {
class PeerIdentity;
}

namespace sahaj::dht {

// One record as it travels inside a DHT value. Fixed layout, integers big-endian:
//
//     offset  size  field
//          0     4  magic "SHR2" (format version 2)
//          4    32  owner: Ed25519 public key (the peer id)
//         36     8  issuedAt, milliseconds since the Unix epoch
//         44     8  expiresAt, milliseconds since the Unix epoch
//         52     2  C, the credential's size, at most kMaxCredentialBytes
//         54     C  credential: the owner's access token (security::AccessToken wire form)
//     54 + C     N  payload, N = total - 118 - C, at most kMaxPayloadBytes
// 54 + C + N    64  owner's Ed25519 signature of kSigningContext + key hash + bytes [0, 54 + C + N)
//
// The signed bytes are the sent bytes (no re-encoding to agree on), and the DHT key's hash is signed
// with them, so a record cannot be replayed under another key. The key hash, not the key text, is what
// storing nodes see, so they can check signatures too. The credential travels in every record so that any
// reader, or storing node, can tell on its own whether the owner was admitted to the run (RecordReader);
// it is empty only on networks that admit anyone (tests of the DHT alone).
class RecordEnvelope {
public:
    using Clock = std::chrono::system_clock;
    static constexpr qsizetype kHeaderSize = 54; // up to the credential
    static constexpr qsizetype kSignatureSize = 64;
    static constexpr qsizetype kMaxCredentialBytes = 1024; // AccessToken::kMaxBytes
    static constexpr qsizetype kMaxPayloadBytes = 16 * 1024;
    static constexpr qsizetype kMaxEncodedSize =
        kHeaderSize + kMaxCredentialBytes + kMaxPayloadBytes + kSignatureSize;

    // Any fields, signature included: a test can build a forged record this way.
    RecordEnvelope(security::PeerId owner, Clock::time_point issuedAt, Clock::time_point expiresAt,
                   QByteArray payload, QByteArray signature, QByteArray credential = {});

    // A record of `identity` carrying `credential`, signed for the key whose hash is `keyHash`. Times are
    // kept to the millisecond. Throws std::invalid_argument when the payload exceeds kMaxPayloadBytes or
    // the credential kMaxCredentialBytes.
    static RecordEnvelope sign(const security::PeerIdentity& identity, QByteArrayView keyHash,
                               Clock::time_point issuedAt, Clock::time_point expiresAt, QByteArray payload,
                               QByteArray credential = {});
    // The envelope in `bytes`, or nullopt when they are not one (wrong size or magic, times outside
    // what the clock can hold). Untrusted input: checks only, never throws.
    static std::optional<RecordEnvelope> decode(QByteArrayView bytes);

    QByteArray encode() const;
    bool hasValidSignature(QByteArrayView keyHash) const;

    const security::PeerId& owner() const { return owner_; }
    Clock::time_point issuedAt() const;
    Clock::time_point expiresAt() const;
    const QByteArray& payload() const { return payload_; }
    const QByteArray& signature() const { return signature_; }
    const QByteArray& credential() const { return credential_; }

private:
    QByteArray signedBytes(QByteArrayView keyHash) const;

    security::PeerId owner_;
    std::int64_t issuedAtMs_;
    std::int64_t expiresAtMs_;
    QByteArray payload_;
    QByteArray signature_;
    QByteArray credential_;
};

} // namespace sahaj::dht
