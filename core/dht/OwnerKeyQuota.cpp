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
    // The owner's entries are one run of the ordered table: count its live keys, forgetting expired ones.
    std::size_t live = 0;
    for (auto it = expiries_.lower_bound({ownerBytes, QByteArray()});
         it != expiries_.end() && it->first.first == ownerBytes;) {
        if (it->second <= now) {
            it = expiries_.erase(it);
        } else {
            ++live;
            ++it;
        }
    }
    if (live >= kMaxKeysPerOwner)
        return false;
    if (expiries_.size() >= kMaxEntries)
        dropExpired(now);
    if (expiries_.size() >= kMaxEntries)
        return false;
    expiries_.emplace(entry, expiresAt);
    return true;
}

std::size_t OwnerKeyQuota::keysOf(const security::PeerId& owner,
                                  RecordEnvelope::Clock::time_point now) const {
    const QByteArray ownerBytes = owner.bytes();
    std::lock_guard lock(mutex_);
    std::size_t live = 0;
    for (auto it = expiries_.lower_bound({ownerBytes, QByteArray()});
         it != expiries_.end() && it->first.first == ownerBytes; ++it)
        live += it->second > now ? 1 : 0;
    return live;
}

void OwnerKeyQuota::dropExpired(RecordEnvelope::Clock::time_point now) {
    for (auto it = expiries_.begin(); it != expiries_.end();)
        it = it->second <= now ? expiries_.erase(it) : std::next(it);
}

} // namespace sahaj::dht
