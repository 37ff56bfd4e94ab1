#pragma once

#include "core/dht/RunClock.h"

#include <cstdint>
#include <memory>

namespace dht {
struct ValueType; // OpenDHT's
}

namespace sahaj::dht {

class OwnerKeyQuota;
class RecordReader;

// The OpenDHT value type that carries Sahaj records (RecordEnvelope).
class RecordValueType {
public:
    static constexpr std::uint16_t kId = 0x53A4;

    // The type with storage policies that make a Sahaj storing node keep only live, validly signed
    // records in their owner's slot, and let a record be replaced only by a newer one of the same owner
    // (so a replayed old record or a forger cannot overwrite it). Stored values expire after
    // RecordRules::kMaxTtl whatever their own expiry; readers drop them at their own expiry. Refusals are
    // counted by `reader`. An owner stores under at most OwnerKeyQuota::kMaxKeysPerOwner keys (`quota`).
    // Records are judged at `clock`'s time.
    static ::dht::ValueType make(std::shared_ptr<RecordReader> reader, std::shared_ptr<OwnerKeyQuota> quota,
                                 RunClock clock);
};

} // namespace sahaj::dht
