#pragma once

#include "core/collab/StateChunker.h"
#include "core/net/WireMessage.h"

#include <memory>

namespace sahaj::net {
class MessageCodec;
}

namespace sahaj::collab {

// A donor's answers to state requests: the collaboration thread passes each StateRequest that reaches
// its ROUTER, and the server replies with the asked-for chunk of the snapshot the request names (the
// current one, or the one before it), or an error when it has none as new as the requester needs.
// Snapshots are immutable and swapped whole (offer()), and the one replaced stays served until the next
// offer: a newcomer's download that began just before this donor stepped still completes, where serving
// only the newest made it fail with "a chunk of another snapshot" whenever a download spanned a step.
// Memory: at most two snapshots (a queued reply keeps its own alive until sent, StateChunker::sharedData).
// Serving never waits for training.
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
    // The snapshot `id` names (the current one for an empty id), nullptr when neither held matches.
    const StateChunker* named(const std::string& id) const;

    const net::MessageCodec& codec_;
    std::shared_ptr<const StateChunker> snapshot_;
    std::shared_ptr<const StateChunker> previous_;
};

} // namespace sahaj::collab
