#pragma once

#include "core/collab/StateVote.h"
#include "core/net/protocol.pb.h"

#include <zmq.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace sahaj::collab {

// A newcomer's side of one download: takes the chunks of one snapshot in order and hands back its bytes
// only once they are all there and their sha256 matches. Refuses (net::ProtocolViolation, naming the
// problem) a state older than the newcomer's own, a chunk out of order, a chunk of another snapshot or
// epoch, a change in the chunk count, a total past maxBytes, or a final hash that does not match: the
// caller then drops this donor and falls back to the next. With an `expected` digest (the one the donors
// vouched for, StateVote), a snapshot of any other epoch, id, size or hash is refused too, from its first
// chunk where the header already tells.
class StateAssembler {
public:
    StateAssembler(std::uint64_t minEpoch, std::uint64_t maxBytes, std::optional<StateDigest> expected = {});

    // Returns true when the snapshot is complete and verified.
    bool add(const wire::StateChunk& chunk, const zmq::message_t& data);

    std::uint32_t nextChunk() const { return next_; }
    // The snapshot to ask the donor for: the one vouched for before the first chunk, then the one it came
    // from (empty: whatever the donor serves newest).
    std::string snapshotToAsk() const;
    bool complete() const { return complete_; }
    std::uint64_t epoch() const { return epoch_; }
    // The verified bytes (once complete); moves them out.
    std::string take();

private:
    std::uint64_t minEpoch_;
    std::uint64_t maxBytes_;
    std::optional<StateDigest> expected_;
    std::uint32_t next_ = 0;
    std::uint32_t chunks_ = 0;
    std::uint64_t epoch_ = 0;
    std::string snapshotId_;
    std::string bytes_;
    bool complete_ = false;
};

} // namespace sahaj::collab
