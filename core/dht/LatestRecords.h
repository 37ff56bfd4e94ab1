#pragma once

#include "core/dht/DhtRecord.h"

#include <map>
#include <vector>

namespace sahaj::dht {

// The newest record of each owner among those offered, expired ones included: the DHT may answer with
// an owner's older record (from a node that missed the replacement) next to its newer one, and a newer
// record that has expired must still hide an older one that has not.
class LatestRecords {
public:
    // Keeps `record` unless a record of the same owner issued later is already held.
    void offer(DhtRecord record);
    // The held records not expired at `now`, ordered by owner.
    std::vector<DhtRecord> live(std::chrono::system_clock::time_point now) const;

private:
    std::map<security::PeerId, DhtRecord> byOwner_;
};

} // namespace sahaj::dht
