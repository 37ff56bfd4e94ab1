#include "core/collab/StateServer.h"

#include "core/net/MessageCodec.h"

namespace sahaj::collab {

StateServer::StateServer(const net::MessageCodec& codec) : codec_(codec) {}

void StateServer::offer(std::shared_ptr<const StateChunker> snapshot) {
    if (snapshot == snapshot_)
        return;
    previous_ = std::move(snapshot_);
    snapshot_ = std::move(snapshot);
}

const StateChunker* StateServer::named(const std::string& id) const {
    if (id.empty() || (snapshot_ && snapshot_->snapshotId() == id))
        return snapshot_.get();
    if (previous_ && previous_->snapshotId() == id)
        return previous_.get();
    return nullptr;
}

std::size_t StateServer::answer(zmq::socket_t& router, const net::WireMessage& request) const {
    const bool digest = request.envelope.has_state_digest_request();
    const wire::StateRequest& asked = request.envelope.state_request();
    const std::uint64_t minEpoch =
        digest ? request.envelope.state_digest_request().min_epoch() : asked.min_epoch();
    wire::Envelope reply;
    reply.set_request_id(request.envelope.request_id());
    std::vector<zmq::message_t> data;
    if (!snapshot_ || snapshot_->epoch() < minEpoch) {
        reply.mutable_error()->set_message("no state as new as epoch " + std::to_string(minEpoch));
    } else if (digest) {
        wire::StateDigest* answer = reply.mutable_state_digest();
        answer->set_epoch(snapshot_->epoch());
        answer->set_sha256(snapshot_->sha256());
        answer->set_size(snapshot_->size());
    } else if (const StateChunker* served = named(asked.snapshot_id()); !served) {
        reply.mutable_error()->set_message("the snapshot asked for is no longer served");
    } else if (served->epoch() < minEpoch) {
        reply.mutable_error()->set_message("no state as new as epoch " + std::to_string(minEpoch));
    } else if (asked.chunk() >= served->chunks()) {
        reply.mutable_error()->set_message("no chunk " + std::to_string(asked.chunk()));
    } else {
        *reply.mutable_state_chunk() = served->header(asked.chunk());
        data.push_back(
            StateChunker::sharedData(served == snapshot_.get() ? snapshot_ : previous_, asked.chunk()));
    }
    std::vector<zmq::message_t> frames = codec_.encode(std::move(reply), std::move(data));
    std::size_t bytes = 0;
    for (const zmq::message_t& frame : frames)
        bytes += frame.size();
    return net::MessageCodec::send(router, frames, &request.route, /*dontWait=*/true) ? bytes : 0;
}

} // namespace sahaj::collab
