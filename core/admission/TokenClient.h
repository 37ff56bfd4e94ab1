#pragma once

#include "core/security/AccessToken.h"
#include "core/security/PeerId.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <string>

namespace sahaj::net {
class CoordinatorClock;
class SocketFactory;
} // namespace sahaj::net
namespace sahaj::security {
class PeerIdentity;
}

namespace sahaj::admission {

// A volunteer's side of the coordinator's token endpoint: one TokenRequest, proven with the volunteer's
// Ed25519 identity, over a CURVE connection that authenticates the endpoint by its key, and the token that
// comes back checked before anyone relies on it.
class TokenClient {
public:
    struct Request {
        QString username;
        QByteArray secret;         // the password (allowlist) or invite code (invites); empty for open
        QByteArray curvePublicKey; // the key of `sockets`' CURVE pair: the endpoint checks they agree
        security::AccessToken::Role role = security::AccessToken::Role::Node;
        QByteArray currentToken; // a renewal: the token held now (then no secret is needed)
    };

    // Asks the endpoint at `endpoint` (CURVE public key `serverCurveKey`, 32 raw bytes) for a token for
    // `identity` in `runId`, and returns the token's wire form once it checks out: signed by `organiser`,
    // valid for `runId` now, naming `identity`, the request's CURVE key and role. `sockets` must use
    // CURVE with the pair whose public key is request.curvePublicKey. Throws TokenRefused with the
    // endpoint's reason when it says no; std::runtime_error when no answer came within `timeout`
    // ("no answer from the token endpoint ENDPOINT within N s"), or the answer is malformed or its token
    // does not check out; std::invalid_argument for a request that cannot be sent (bad role, key sizes).
    // With `clock`, the exchange is noted there (EndpointCall::exchange).
    static QByteArray request(const net::SocketFactory& sockets, const std::string& endpoint,
                              const std::string& serverCurveKey, const security::PeerIdentity& identity,
                              const QString& runId, const security::PeerId& organiser, Request request,
                              std::chrono::milliseconds timeout, net::CoordinatorClock* clock = nullptr);
};

} // namespace sahaj::admission
