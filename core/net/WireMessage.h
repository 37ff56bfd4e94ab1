#pragma once

#include "core/net/protocol.pb.h"

#include <zmq.hpp>

#include <vector>

namespace sahaj::net {

// One decoded message: the envelope and its raw data frames (tensor bytes, a state chunk), moved
// around by ownership so that the bytes are never copied between the socket and the code using them.
struct WireMessage {
    wire::Envelope envelope;
    std::vector<zmq::message_t> data;
    // On a ROUTER socket: the routing id of the connection it came from (where a reply must go).
    zmq::message_t route;
};

} // namespace sahaj::net
