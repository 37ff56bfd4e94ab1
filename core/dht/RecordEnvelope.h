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
//          0     4  magic "SHR1" (format version 1)
//          4    32  owner: Ed25519 public key (the peer id)
//         36     8  issuedAt, milliseconds since the Unix epoch
//         44     8  expiresAt, milliseconds since the Unix epoch
//         52     N  payload, N = total - 116, at most kMaxPayloadBytes
//     52 + N    64  owner's Ed25519 signature of kSigningContext + key hash + bytes [0, 52 + N)
//
// The signed bytes are the sent bytes (no re-encoding to agree on), and the DHT key's hash is signed
// with them, so a record cannot be replayed under another key. The key hash, not the key text, is what
// storing nodes see, so they can check signatures too.
class RecordEnvelope {
public:
    using Clock = std::chrono::system_clock;
    static constexpr qsizetype kHeaderSize = 52;
    static constexpr qsizetype kSignatureSize = 64;
    static constexpr qsizetype kMaxPayloadBytes = 16 * 1024;
    static constexpr qsizetype kMaxEncodedSize = kHeaderSize + kMaxPayloadBytes + kSignatureSize;

    // Any fields, signature included: a test can build a forged record this way.
    RecordEnvelope(security::PeerId owner, Clock::time_point issuedAt, Clock::time_point expiresAt,
                   QByteArray payload, QByteArray signature);

    // A record of `identity`, signed for the key whose hash is `keyHash`. Times are kept to the
    // millisecond. Throws std::invalid_argument when the payload exceeds kMaxPayloadBytes.
    static RecordEnvelope sign(const security::PeerIdentity& identity, QByteArrayView keyHash,
                               Clock::time_point issuedAt, Clock::time_point expiresAt, QByteArray payload);
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

private:
    QByteArray signedBytes(QByteArrayView keyHash) const;

    security::PeerId owner_;
    std::int64_t issuedAtMs_;
    std::int64_t expiresAtMs_;
    QByteArray payload_;
    QByteArray signature_;
};

} // namespace sahaj::dht
