#pragma once

#include "core/net/WireMessage.h"

#include <zmq.hpp>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sahaj::net {
class CoordinatorClock;
class MessageCodec;
class SocketFactory;
} // namespace sahaj::net

namespace sahaj::admission {

// One request to the coordinator's token endpoint and its answer, on a connection of its own: what the
// token, reachability and (windowed) mirror clients share for a single exchange.
class EndpointCall {
public:
    // No answer came within the timeout: the endpoint is down, or unreachable from here (unlike an answer
    // that was malformed, after which asking again will not help).
    class NoAnswer : public std::runtime_error {
    public:
        using std::runtime_error::runtime_error;
    };

    // Connects to `endpoint` (CURVE public key `serverCurveKey`), sends `frames` (an encoded request whose
    // envelope has `requestId`) and returns the first reply with that id, decoded by `codec`. Throws
    // NoAnswer "no answer from the token endpoint ... within N s" when none comes within
    // `timeout` (the CURVE handshake included), or saying the answer is malformed. With `clock`, the
    // answer's timestamp and the exchange's round trip are noted there (the run's time).
    static net::WireMessage exchange(const net::SocketFactory& sockets, const std::string& endpoint,
                                     const std::string& serverCurveKey, const net::MessageCodec& codec,
                                     std::vector<zmq::message_t> frames, std::uint64_t requestId,
                                     std::chrono::milliseconds timeout,
                                     net::CoordinatorClock* clock = nullptr);
};

} // namespace sahaj::admission
