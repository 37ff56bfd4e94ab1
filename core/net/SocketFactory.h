#pragma once

#include <zmq.hpp>

#include <optional>
#include <string>

namespace sahaj::net {

// Makes every ZeroMQ socket Sahaj uses, with one set of options, so that limits, CURVE keys and the ZAP
// domain apply to all of them:
//  - ZMQ_MAXMSGSIZE: libzmq drops a peer that sends an oversized frame before assembling it;
//  - small high-water marks: bounded queues, never unbounded memory for a slow or stalled peer;
//  - ROUTER_MANDATORY: a message to an unknown or vanished peer fails loudly instead of being dropped;
//  - ROUTER_HANDOVER: a peer that reconnects with the same id takes over its old connection;
//  - heartbeats and a bounded handshake: dead connections are noticed in seconds;
//  - a short linger: closing never hangs on a peer that stopped reading;
//  - DEALERs use the peer id as routing id and queue only on completed connections (ZMQ_IMMEDIATE);
//  - with CURVE, traffic is encrypted and ROUTERs ask the context's ZapHandler about every client, with
//    ZMQ_ZAP_ENFORCE_DOMAIN set so that a context without a handler refuses instead of admitting.
// A socket belongs to the thread that uses it; move it there, never share it.
class SocketFactory {
public:
    struct Options {
        int sendHighWaterMark = 256; // messages (parts of 128 KiB by default: 32 MiB per connection)
        int receiveHighWaterMark = 256;
        int lingerMs = 500;
        int handshakeMs = 10000;
        int heartbeatIntervalMs = 2000;
        int heartbeatTimeoutMs = 10000;
        int reconnectMs = 100;
        int reconnectMaxMs = 5000;
    };

    // This peer's CURVE key pair (raw 32-byte halves, as security::CurveKeyPair gives them) and the ZAP
    // domain its ROUTERs authenticate clients on (ZapHandler::runDomain()).
    struct Curve {
        std::string publicKey;
        std::string secretKey;
        std::string zapDomain;
    };

    // peerId: this peer's 32-byte id (the routing id of its DEALERs). Without `curve` the sockets are
    // plain (tests, tools on loopback). Throws std::invalid_argument on a peer id or key that does not
    // have 32 bytes, or an empty or over-long (254 bytes) ZAP domain.
    SocketFactory(zmq::context_t& context, std::string peerId, Options options, std::optional<Curve> curve);
    SocketFactory(zmq::context_t& context, std::string peerId, Options options)
        : SocketFactory(context, std::move(peerId), options, std::nullopt) {}
    SocketFactory(zmq::context_t& context, std::string peerId)
        : SocketFactory(context, std::move(peerId), Options{}) {}

    // A ROUTER bound to `endpoint` ("tcp://127.0.0.1:0" picks a free port; boundEndpoint() tells which).
    // With CURVE it is a CURVE server authenticating clients on the factory's ZAP domain.
    zmq::socket_t bindRouter(const std::string& endpoint) const;
    // The same on another ZAP domain (ZapHandler::kAdmissionDomain for the token endpoint). Without
    // CURVE the domain is ignored.
    zmq::socket_t bindRouter(const std::string& endpoint, const std::string& zapDomain) const;
    // A DEALER connected to a peer's ROUTER. With CURVE, `serverKey` is that peer's CURVE public key
    // (32 raw bytes; std::invalid_argument otherwise), which the handshake proves the server holds.
    // Without CURVE it is ignored.
    zmq::socket_t connectDealer(const std::string& endpoint, const std::string& serverKey = {}) const;

    // Whether the sockets use CURVE.
    bool secure() const { return curve_.has_value(); }

    // The endpoint a socket is bound to (with the real port after binding port 0).
    static std::string boundEndpoint(const zmq::socket_t& socket);
    // The ZAP user id of the connection a received frame came from ("User-Id": the hex peer id ZapHandler
    // admitted the sender's key as, or the hex CURVE key on its admission domain), or "" when there is
    // none (a socket without CURVE, a frame made locally).
    static std::string authenticatedUser(const zmq::message_t& frame);

private:
    void applyCommon(zmq::socket_t& socket) const;

    zmq::context_t& context_;
    std::string peerId_;
    Options options_;
    std::optional<Curve> curve_;
};

} // namespace sahaj::net
