#pragma once

#include "core/run/DataShard.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sahaj::run {

// The order in which one peer goes through a run's shards, pass after pass: each shard gets a key from a
// hash of the run, the peer, the pass and the shard, raised to 1/weight (Efraimidis and Spirakis'
// weighted sampling without replacement), and the shards go by descending key. So each next shard is
// drawn with probability proportional to its weight among those left, every peer has its own order, the
// same after every restart, a new one each pass, and two peers rarely train on the same shard at once;
// nobody has to hand shards out. A peer id is chosen by its peer, so it can steer only its own order,
// not anybody else's.
class ShardOrder {
public:
    // Indexes into `shards`, first to last, for pass `pass` (0 first).
    static std::vector<std::size_t> forPeer(const std::vector<DataShard>& shards, const QString& runId,
                                            const QString& peerId, std::uint64_t pass = 0);
};

} // namespace sahaj::run
