#pragma once

#include <zmq.hpp>

#include <string>

namespace sahaj::net {

// Makes every ZeroMQ socket Sahaj uses, with one set of options, so that limits (and later CURVE keys
// and the ZAP domain) apply to all of them:
//  - ZMQ_MAXMSGSIZE: libzmq drops a peer that sends an oversized frame before assembling it;
//  - small high-water marks: bounded queues, never unbounded memory for a slow or stalled peer;
//  - ROUTER_MANDATORY: a message to an unknown or vanished peer fails loudly instead of being dropped;
//  - ROUTER_HANDOVER: a peer that reconnects with the same id takes over its old connection;
//  - heartbeats and a bounded handshake: dead connections are noticed in seconds;
//  - a short linger: closing never hangs on a peer that stopped reading;
//  - DEALERs use the peer id as routing id and queue only on completed connections (ZMQ_IMMEDIATE).
// A socket belongs to the thread that uses it; move it there, never share it.
class SocketFactory {
public:
    struct Options {
        int sendHighWaterMark = 256; // messages (parts of ~512 KiB: ~128 MiB at most per connection)
        int receiveHighWaterMark = 256;
        int lingerMs = 500;
        int handshakeMs = 10000;
        int heartbeatIntervalMs = 2000;
        int heartbeatTimeoutMs = 10000;
        int reconnectMs = 100;
        int reconnectMaxMs = 5000;
    };

    // peerId: this peer's 32-byte id (the routing id of its DEALERs).
    SocketFactory(zmq::context_t& context, std::string peerId, Options options);
    SocketFactory(zmq::context_t& context, std::string peerId)
        : SocketFactory(context, std::move(peerId), Options{}) {}

    // A ROUTER bound to `endpoint` ("tcp://127.0.0.1:0" picks a free port; boundEndpoint() tells which).
    zmq::socket_t bindRouter(const std::string& endpoint) const;
    // A DEALER connected to a peer's ROUTER.
    zmq::socket_t connectDealer(const std::string& endpoint) const;

    // The endpoint a socket is bound to (with the real port after binding port 0).
    static std::string boundEndpoint(const zmq::socket_t& socket);

private:
    void applyCommon(zmq::socket_t& socket) const;

    zmq::context_t& context_;
    std::string peerId_;
    Options options_;
};

} // namespace sahaj::net
