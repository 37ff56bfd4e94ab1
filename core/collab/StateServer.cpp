#include "core/collab/StateServer.h"

#include "core/net/MessageCodec.h"

namespace sahaj::collab {

StateServer::StateServer(const net::MessageCodec& codec) : codec_(codec) {}

void StateServer::offer(std::shared_ptr<const StateChunker> snapshot) {
    snapshot_ = std::move(snapshot);
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
    } else if (asked.chunk() >= snapshot_->chunks()) {
        reply.mutable_error()->set_message("no chunk " + std::to_string(asked.chunk()));
    } else {
        *reply.mutable_state_chunk() = snapshot_->header(asked.chunk());
        data.push_back(StateChunker::sharedData(snapshot_, asked.chunk()));
    }
    std::vector<zmq::message_t> frames = codec_.encode(std::move(reply), std::move(data));
    std::size_t bytes = 0;
    for (const zmq::message_t& frame : frames)
        bytes += frame.size();
    return net::MessageCodec::send(router, frames, &request.route, /*dontWait=*/true) ? bytes : 0;
}

} // namespace sahaj::collab
