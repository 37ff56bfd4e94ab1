#pragma once

#include "core/net/WireMessage.h"

#include <zmq.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::net {

// Turns messages into ZeroMQ frames and back, for one peer in one run: outgoing envelopes get the
// protocol version, the run id, the sender's peer id and a timestamp; incoming frames are checked
// before anything else reads them (frame count and sizes, envelope parse, version, run, sender, then
// MessageValidator on the body). Every rejection is a ProtocolViolation naming what was wrong.
class MessageCodec {
public:
    // peerId: this peer's 32-byte id. Throws std::invalid_argument for a bad run id or peer id.
    MessageCodec(std::string runId, std::string peerId);

    // The frames of one message: the envelope, then the data frames (moved, not copied).
    std::vector<zmq::message_t> encode(wire::Envelope envelope, std::vector<zmq::message_t> data = {}) const;
    // `frames` without routing frames. The returned message's route is empty.
    WireMessage decode(std::vector<zmq::message_t> frames) const;

    // The sender an envelope frame names, if it parses that far and names 32 bytes; "" otherwise. A claim
    // only, for blame in runs without CURVE and for logs: under CURVE the connection's User-Id says who
    // sent it.
    static std::string claimedSender(const zmq::message_t& envelopeFrame);

    // Under CURVE (a run that admits peers by token) decode() also refuses a message whose sender is not
    // the peer the ZAP handler authenticated its connection as (the "User-Id" of its frames; frames that
    // came on a DEALER carry none, and the DEALER authenticated its server by key), a message from a peer
    // that `banned` names, and a message whose timestamp is more than kReplayWindow from this peer's clock.
    static constexpr std::chrono::seconds kReplayWindow{120};
    void authenticateSenders(std::function<bool(const std::string& peerId)> banned);

    // Sends frames as one multipart message; on a ROUTER `route` (the peer's routing id) goes first. On
    // success the frames are consumed (left empty). Returns false, with the frames untouched, when the
    // socket would block (full queue) under dontWait, or when a ROUTER has no such peer
    // (ZMQ_ROUTER_MANDATORY): the caller decides whether to retry or what a lost peer means.
    static bool send(zmq::socket_t& socket, std::vector<zmq::message_t>& frames,
                     const zmq::message_t* route = nullptr, bool dontWait = false);

    enum class SendResult {
        Sent,
        WouldBlock,  // the connection's queue is full (dontWait): try again later
        Unreachable, // a ROUTER has no connection for the route: the peer is gone or never came
    };
    // send() telling the two failures apart, for callers that retry one and give up on the other.
    static SendResult trySend(zmq::socket_t& socket, std::vector<zmq::message_t>& frames,
                              const zmq::message_t* route = nullptr, bool dontWait = false);
    // Receives one multipart message, waiting up to `timeout` (nullopt: nothing arrived). On a ROUTER the
    // first frame is the routing id and is returned separately in `route`. More than kMaxFrames frames:
    // the rest are drained and a ProtocolViolation is thrown.
    static std::optional<std::vector<zmq::message_t>>
    receive(zmq::socket_t& socket, std::chrono::milliseconds timeout, zmq::message_t* route = nullptr);

    const std::string& runId() const { return runId_; }
    const std::string& peerId() const { return peerId_; }

private:
    void checkAuthenticated(const zmq::message_t& head, const wire::Envelope& envelope) const;

    std::string runId_;
    std::string peerId_;
    bool authenticate_ = false;
    std::function<bool(const std::string&)> banned_;
};

} // namespace sahaj::net
