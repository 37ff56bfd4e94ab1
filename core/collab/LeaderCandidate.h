#pragma once

#include <cstdint>
#include <string>
#include <tuple>

namespace sahaj::collab {

// A peer that declared itself ready to lead a group for an epoch (a wire::Declaration read from the DHT,
// its owner checked by the DHT layer's signature).
struct LeaderCandidate {
    std::string peerId; // 32 bytes: the declaration's owner
    std::string endpoint;
    std::uint64_t expirationMs = 0; // wall clock, ms since the epoch
    std::string curveKey{};         // from its owner's access token (empty in runs that admit anyone)

    // The total order of leaders: the earliest expiration leads, the lower peer id on ties. A leader only
    // ever joins a strictly better one, so no two leaders wait for each other.
    bool betterThan(const LeaderCandidate& other) const {
        return std::tie(expirationMs, peerId) < std::tie(other.expirationMs, other.peerId);
    }
};

} // namespace sahaj::collab
