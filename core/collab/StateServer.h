#pragma once

#include "core/collab/StateChunker.h"
#include "core/net/WireMessage.h"

#include <memory>

namespace sahaj::net {
class MessageCodec;
}

namespace sahaj::collab {

// A donor's answers to state requests: the collaboration thread passes each StateRequest that reaches
// its ROUTER, and the server replies with the asked-for chunk of the current snapshot, or an error when
// it has none as new as the requester needs. Snapshots are immutable and swapped whole (offer()), so a
// download in progress keeps reading the snapshot it started on, and serving never waits for training.
class StateServer {
public:
    explicit StateServer(const net::MessageCodec& codec);

    // The snapshot to serve from now on (nullptr: serve nothing).
    void offer(std::shared_ptr<const StateChunker> snapshot);

    // Replies on `router` to `request` (a decoded StateRequest or StateDigestRequest whose route is set).
    // Returns the bytes queued (what serving costs this peer's upload), 0 when the reply could not be queued
    // (the requester is gone or its queue is full: it will ask again).
    std::size_t answer(zmq::socket_t& router, const net::WireMessage& request) const;

private:
    const net::MessageCodec& codec_;
    std::shared_ptr<const StateChunker> snapshot_;
};

} // namespace sahaj::collab
