#pragma once

#include "core/security/PeerId.h"

#include <QByteArray>

#include <chrono>

namespace sahaj::dht {

// A live record read from the DHT: what `owner` published under a key, valid until `expiresAt` (by the
// owner's clock; see RecordRules for how skew is bounded).
struct DhtRecord {
    security::PeerId owner;
    QByteArray payload;
    std::chrono::system_clock::time_point issuedAt;
    std::chrono::system_clock::time_point expiresAt;
};

} // namespace sahaj::dht
