#pragma once

#include "core/dht/DhtRecord.h"

#include <QByteArrayView>

#include <atomic>
#include <cstdint>
#include <optional>

namespace sahaj::dht {

// Turns DHT values into records: decodes the envelope, applies RecordRules, and counts what it refuses.
// Shared between the node's callers and OpenDHT's thread; its only state is the atomic counter.
class RecordReader {
public:
    // The valid record in `data` (value `valueId` under the key hashing to `keyHash`), expired or not, or
    // nullopt for an invalid one (malformed, forged, implausible), which is counted. Expired records are
    // returned because they still hide their owner's older records (see LatestRecords).
    std::optional<DhtRecord> read(QByteArrayView keyHash, std::uint64_t valueId, QByteArrayView data,
                                  std::chrono::system_clock::time_point now);

    // Values refused as invalid since construction.
    std::uint64_t rejected() const { return rejected_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> rejected_{0};
};

} // namespace sahaj::dht
