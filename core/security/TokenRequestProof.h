#pragma once

#include "core/security/AccessToken.h"
#include "core/security/PeerId.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstdint>

namespace sahaj::security {

class PeerIdentity;

// What a volunteer signs with its Ed25519 identity when it asks the coordinator's token endpoint for an
// access token: it proves that the requester holds the key the token will name, and ties the request's
// every field (but the secret) to that key, so that nobody can replay it for other keys, another run, a
// later time or another role.
//
// Canonical bytes: the ASCII magic "sahaj-token-request-v1", then each field as a 4-byte big-endian length
// and its bytes, in this order: run id (UTF-8), sender peer id (32), user name (UTF-8), CURVE public key,
// role (1 byte, AccessToken::Role), current token (wire form, empty for a first request), timestamp (ms
// since the Unix epoch, 8 bytes big-endian), nonce. The secret (password or invite code) is left out: a
// signature must not become an oracle for it, and CURVE already keeps it from eavesdroppers.
class TokenRequestProof {
public:
    struct Fields {
        QString runId;
        PeerId sender;
        QString username;
        QByteArray curvePublicKey;
        AccessToken::Role role = AccessToken::Role::Node;
        QByteArray currentToken;
        std::uint64_t timestampMs = 0; // the envelope's timestamp, exactly as sent
        QByteArray nonce;
    };

    // The canonical bytes of `fields`: the message signed.
    static QByteArray bytes(const Fields& fields);
    // The 64-byte Ed25519 signature of bytes(fields) by `identity`. Throws std::invalid_argument when
    // fields.sender is not identity.id(): such a proof could never verify.
    static QByteArray sign(const PeerIdentity& identity, const Fields& fields);
    // Whether `signature` is `peer`'s proof of `fields`. Never throws.
    static bool verify(const PeerId& peer, const Fields& fields, QByteArrayView signature);
};

} // namespace sahaj::security
