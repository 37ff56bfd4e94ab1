#pragma once

#include "core/net/WireLimits.h"

#include <zmq.hpp>

#include <cstdint>

#include <optional>
#include <string>

namespace sahaj::net {

// Makes every ZeroMQ socket Sahaj uses, with one set of options, so that limits, CURVE keys and the ZAP
// domain apply to all of them:
//  - ZMQ_MAXMSGSIZE: libzmq drops a peer that sends an oversized frame before assembling it;
//  - small high-water marks: bounded queues, never unbounded memory for a slow or stalled peer;
//  - ROUTER_MANDATORY: a message to an unknown or vanished peer fails loudly instead of being dropped;
//  - libzmq names each connection a ROUTER accepts (DEALERs set no routing id, and ROUTER_HANDOVER is
//    off): a peer that chose its routing id could take over another's connection and receive its
//    replies. Replies go to the connection of the peer's latest authenticated message instead;
//  - TCP keepalive and a retransmission limit (ZMQ_TCP_MAXRT) and a bounded handshake: a vanished host is
//    noticed in seconds by the kernel. No ZMTP heartbeats: libzmq 4.3.4 aborts the whole process when a
//    heartbeat fires on a connection whose peer hung up while this side's receive queue was full
//    (`Assertion failed: !_io_error`, stream_engine_base.cpp) — any peer that sent more than the
//    high-water mark and then died would crash us (docs/protocol.md, Sockets);
//  - a short linger: closing never hangs on a peer that stopped reading;
//  - DEALERs queue only on completed connections (ZMQ_IMMEDIATE);
//  - with CURVE, traffic is encrypted and ROUTERs ask the context's ZapHandler about every client, with
//    ZMQ_ZAP_ENFORCE_DOMAIN set so that a context without a handler refuses instead of admitting.
// A socket belongs to the thread that uses it; move it there, never share it.
class SocketFactory {
public:
    // What CURVE adds to a frame on the wire (a MESSAGE command: name, flags, nonce and MAC, 33 bytes),
    // with room to spare. Without it a state chunk of exactly 4 MiB was dropped under CURVE.
    static constexpr std::int64_t kTransportOverheadBytes = 4096;

    struct Options {
        int sendHighWaterMark = 256; // messages (parts of 128 KiB by default: 32 MiB per connection)
        int receiveHighWaterMark = 256;
        // The largest frame each kind of socket accepts (ZMQ_MAXMSGSIZE): with the high-water mark, what
        // one connection may make this peer hold in memory. A run sets them from its plan (a ROUTER
        // receives parts, a DEALER averages and state chunks); the token endpoint receives small requests.
        // (Each is a frame's payload: libzmq checks the frame as it travels, which CURVE wraps in a
        // MESSAGE command of its own, so the sockets allow kTransportOverheadBytes more.)
        std::int64_t routerMaxMessageBytes = static_cast<std::int64_t>(WireLimits::kMaxDataFrameBytes);
        std::int64_t dealerMaxMessageBytes = static_cast<std::int64_t>(WireLimits::kMaxDataFrameBytes);
        int lingerMs = 500;
        int handshakeMs = 10000;
        // Keepalive probes start after this much silence, one a second, and this many unanswered ones
        // drop the connection: a silent vanished host is gone after about 10 s. The kernel answers
        // probes, so a peer whose application is busy is not dropped.
        int keepaliveIdleS = 5;
        int keepaliveIntervalS = 1;
        int keepaliveProbes = 5;
        // Data the kernel could not deliver for this long (TCP_USER_TIMEOUT) drops the connection.
        int maxRetransmitMs = 60000;
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

    // peerId: the 32-byte id of the peer the sockets belong to (its sockets do not carry it: a peer is
    // known by what its messages say and its connection's handshake proves). Without `curve` the sockets are
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
    // The IP address of the connection a received frame came from ("Peer-Address"), or "" when there is
    // none (not TCP, a frame made locally).
    static std::string peerAddress(const zmq::message_t& frame);

private:
    void applyCommon(zmq::socket_t& socket, std::int64_t maxMessageBytes) const;

    zmq::context_t& context_;
    Options options_;
    std::optional<Curve> curve_;
};

} // namespace sahaj::net
