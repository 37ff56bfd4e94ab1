#include "core/security/RevokedPeers.h"

namespace sahaj::security {

std::vector<PeerId> RevokedPeers::add(const std::set<PeerId>& peers) {
    std::vector<PeerId> added;
    const std::lock_guard lock(mutex_);
    for (const PeerId& peer : peers)
        if (peers_.size() < kMaxPeers && peers_.insert(peer).second)
            added.push_back(peer);
    return added;
}

bool RevokedPeers::contains(const PeerId& peer) const {
    const std::lock_guard lock(mutex_);
    return peers_.contains(peer);
}

std::size_t RevokedPeers::size() const {
    const std::lock_guard lock(mutex_);
    return peers_.size();
}

} // namespace sahaj::security
