#pragma once

#include "core/dht/RecordEnvelope.h"
#include "core/security/PeerId.h"

#include <QByteArray>
#include <QByteArrayView>

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace sahaj::dht {

// How many keys one owner may fill in this node's storage. A record sits in its owner's slot, one per key,
// but nothing else stops an admitted peer from publishing under thousands of keys: each storing node would
// keep them all, up to OpenDHT's byte limit, crowding out every honest record (docs/security.md). A peer
// publishes under a handful of keys (its announcement, its progress, a matchmaking declaration per epoch
// it leads), so an owner gets kMaxKeysPerOwner keys with live records; further keys are refused until one
// of its records expires. Memory is bounded: at most kMaxEntries (owner, key) pairs, the expired ones
// dropped first. Thread-safe: OpenDHT calls storage policies on its own thread.
class OwnerKeyQuota {
public:
    static constexpr std::size_t kMaxKeysPerOwner = 64;
    static constexpr std::size_t kMaxEntries = 65536;

    // Whether `owner` may store a record under `keyHash` living until `expiresAt`: yes when it already has
    // one there (the new record replaces it, and its expiry is taken), or when it has fewer than
    // kMaxKeysPerOwner keys with live records and the table has room.
    bool admit(const security::PeerId& owner, QByteArrayView keyHash,
               RecordEnvelope::Clock::time_point expiresAt, RecordEnvelope::Clock::time_point now);
    // Live keys of `owner` in the table (for tests and the log).
    std::size_t keysOf(const security::PeerId& owner, RecordEnvelope::Clock::time_point now);

private:
    using Entry = std::pair<QByteArray, QByteArray>; // owner id, key hash
    void dropExpired(RecordEnvelope::Clock::time_point now);
    std::size_t liveKeys(const QByteArray& owner, RecordEnvelope::Clock::time_point now, bool forget);

    std::mutex mutex_;
    std::map<Entry, RecordEnvelope::Clock::time_point> expiries_;
};

} // namespace sahaj::dht
