#pragma once

#include "core/security/AccessToken.h"
#include "core/security/PeerId.h"

#include <QByteArray>

#include <chrono>
#include <optional>

namespace sahaj::dht {

// A live record read from the DHT: what `owner` published under a key, valid until `expiresAt` (by the
// owner's clock; see RecordRules for how skew is bounded).
struct DhtRecord {
    security::PeerId owner;
    QByteArray payload;
    std::chrono::system_clock::time_point issuedAt;
    std::chrono::system_clock::time_point expiresAt;
    // The owner's access token, checked, when the node admits peers by token (DhtNodeOptions::admission):
    // its CURVE key is the one to expect at the owner's endpoint.
    std::optional<security::AccessToken> token;
};

} // namespace sahaj::dht
