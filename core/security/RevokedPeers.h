#pragma once

#include "core/security/PeerId.h"

#include <cstddef>
#include <mutex>
#include <set>
#include <vector>

namespace sahaj::security {

// The peers this peer has learnt the run's organiser revoked. The collaboration thread adds to it (from
// the coordinator's revocation record); the DHT's thread asks it for every record it reads, and refuses
// the listed peers' records (dht::RecordAdmission). A revocation holds until this peer stops: an id the
// organiser takes off the list again is not re-admitted (its ZAP ban cannot be lifted either), so
// re-admitting someone means a new identity.
class RevokedPeers {
public:
    // More than the coordinator's largest list (RevocationFile::kMaxPeers), for lists that change over a
    // long run; ids past it are not kept, and add() does not return them.
    static constexpr std::size_t kMaxPeers = 4096;

    // Adds `peers`; returns the ones not listed before, in order.
    std::vector<PeerId> add(const std::set<PeerId>& peers);
    bool contains(const PeerId& peer) const;
    std::size_t size() const;

private:
    mutable std::mutex mutex_;
    std::set<PeerId> peers_;
};

} // namespace sahaj::security
