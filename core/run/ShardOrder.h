#pragma once

#include "core/run/DataShard.h"

#include <QString>

#include <cstddef>
#include <vector>

namespace sahaj::run {

// The order in which one peer goes through a run's shards: each shard is ranked by a hash of the run,
// the peer and the shard (rendezvous hashing), so every peer has its own order, the same after every
// restart, and two peers rarely start on the same shard; nobody has to hand shards out. A peer id is
// chosen by its peer, so it can steer only its own order, not anybody else's.
class ShardOrder {
public:
    // Indexes into `shards`, first to last.
    static std::vector<std::size_t> forPeer(const std::vector<DataShard>& shards, const QString& runId,
                                            const QString& peerId);
};

} // namespace sahaj::run
