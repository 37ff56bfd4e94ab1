#include "core/dht/OwnerKeyQuota.h"

namespace sahaj::dht {

bool OwnerKeyQuota::admit(const security::PeerId& owner, QByteArrayView keyHash,
                          RecordEnvelope::Clock::time_point expiresAt,
                          RecordEnvelope::Clock::time_point now) {
    const QByteArray ownerBytes = owner.bytes();
    const Entry entry{ownerBytes, keyHash.toByteArray()};
    std::lock_guard lock(mutex_);
    if (const auto held = expiries_.find(entry); held != expiries_.end()) {
        held->second = expiresAt;
        return true;
    }
    if (liveKeys(ownerBytes, now, true) >= kMaxKeysPerOwner)
        return false;
    if (expiries_.size() >= kMaxEntries)
        dropExpired(now);
    if (expiries_.size() >= kMaxEntries)
        return false;
    expiries_.emplace(entry, expiresAt);
    return true;
}

std::size_t OwnerKeyQuota::keysOf(const security::PeerId& owner, RecordEnvelope::Clock::time_point now) {
    std::lock_guard lock(mutex_);
    return liveKeys(owner.bytes(), now, false);
}

// The owner's entries are one run of the ordered table: its live keys, forgetting the expired ones when
// `forget` (under the lock).
std::size_t OwnerKeyQuota::liveKeys(const QByteArray& owner, RecordEnvelope::Clock::time_point now,
                                    bool forget) {
    std::size_t live = 0;
    for (auto it = expiries_.lower_bound({owner, QByteArray()});
         it != expiries_.end() && it->first.first == owner;) {
        const bool expired = it->second <= now;
        live += expired ? 0 : 1;
        it = expired && forget ? expiries_.erase(it) : std::next(it);
    }
    return live;
}

void OwnerKeyQuota::dropExpired(RecordEnvelope::Clock::time_point now) {
    for (auto it = expiries_.begin(); it != expiries_.end();)
        it = it->second <= now ? expiries_.erase(it) : std::next(it);
}

} // namespace sahaj::dht
