#pragma once

#include "core/dht/RecordAdmission.h"

#include <QByteArray>

#include <functional>
#include <memory>

namespace sahaj::net {
class CoordinatorClock;
}
namespace sahaj::security {
class CurveKeyPair;
}

namespace sahaj::engine {

// What a peer of a run that admits peers by token needs on its collaboration thread: the rule for records
// and connections (the organiser and run), its CURVE key pair (every socket is encrypted with it), its
// access token, and how to renew that token before it expires.
struct LinkSecurity {
    dht::RecordAdmission admission;
    std::shared_ptr<const security::CurveKeyPair> curve;
    QByteArray token; // this peer's access token (AccessToken wire form), bound to `curve`'s public key
    // Returns a new token for the same keys, given the current one; throws (std::exception) when the
    // authority refuses or cannot be reached. Called on the collaboration thread once a third of the token's
    // lifetime is left (looked at every 5 s), then again every LinkOptions::renewRetry until it succeeds.
    std::function<QByteArray(const QByteArray& current)> renew;
    // The coordinator's time, as the exchanges with its token endpoint measured it (renewals go on
    // measuring): the collaboration's DHT node stamps and judges records by it. Null: this computer's clock.
    std::shared_ptr<const net::CoordinatorClock> clock;
};

} // namespace sahaj::engine
