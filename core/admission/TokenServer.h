#pragma once

#include "core/admission/ReachabilityDialer.h"
#include "core/admission/ShardRequestHandler.h"
#include "core/admission/TokenRequestHandler.h"
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/security/PeerId.h"
#include "core/security/TokenAuthority.h"

#include <QString>

#include <zmq.hpp>

#include <atomic>
#include <optional>
#include <string>
#include <thread>

namespace sahaj::admission {

// The coordinator's token endpoint: a CURVE ROUTER on ZapHandler::kAdmissionDomain (any CURVE key may
// connect, since strangers ask here for their first token) whose thread answers each TokenRequest with
// a TokenReply, by TokenRequestHandler's checks and the run's TokenAuthority, and, when it is the run's data
// mirror too, each ShardRequest of an admitted peer with a piece of the file (ShardRequestHandler), and each
// ReachabilityRequest of an admitted peer by dialling it back (ReachabilityDialer), without waiting for the
// dial. A malformed message gets an ErrorReply (or is dropped when not even that can be sent) and a line in
// the log, never a crash.
//
// The context must have a ZapHandler (ZMQ_ZAP_ENFORCE_DOMAIN: without one every client is refused) and
// must outlive the server. The socket and the authority belong to the server's thread alone.
class TokenServer {
public:
    using Log = TokenRequestHandler::Log;

    // Token and shard requests are a few KiB: a larger frame is dropped by libzmq before it is assembled,
    // and a connection holds at most kMaxQueuedRequests of them (1 MiB), however big the frames a
    // stranger sends.
    static constexpr std::int64_t kMaxRequestBytes = 64 * 1024;
    static constexpr int kMaxQueuedRequests = 16;

    // Binds `listenEndpoint` ("tcp://0.0.0.0:7000", or port 0 for any free port) with `curve`'s keys
    // (its zapDomain is replaced by kAdmissionDomain) and starts the thread. `organiser` is the envelope
    // sender of the replies, `runId` the run whose requests are served; `log` is called from the
    // server's thread. `shards`: the data mirror's files and cap, or none (shard requests are refused,
    // saying so). Throws zmq::error_t when the endpoint cannot be bound, std::invalid_argument for bad
    // keys, run id or peer id.
    TokenServer(zmq::context_t& context, net::SocketFactory::Curve curve, const std::string& listenEndpoint,
                security::TokenAuthority authority, const security::PeerId& organiser, const QString& runId,
                Log log, std::optional<ShardRequestHandler> shards = std::nullopt);
    // Stops the thread (within about kPollInterval) and closes the socket.
    ~TokenServer();
    TokenServer(const TokenServer&) = delete;
    TokenServer& operator=(const TokenServer&) = delete;

    // The bound endpoint, with the real port.
    const std::string& endpoint() const { return endpoint_; }

private:
    // How often the thread looks up from its socket to see whether it should stop.
    static constexpr std::chrono::milliseconds kPollInterval{100};
    // How long each of the socket and the dials is waited on in turn while dials are under way.
    static constexpr std::chrono::milliseconds kDialPollInterval{10};

    void serve(zmq::socket_t& socket);
    void handle(zmq::socket_t& socket, const zmq::message_t& route, std::vector<zmq::message_t> frames);
    // `revoked`: the organiser revoked the sender; its token, valid until it expires, is then no longer
    // enough for the data mirror or a dial.
    void serveShard(zmq::socket_t& socket, const zmq::message_t& route, const net::WireMessage& request,
                    const std::string& connectionUser, bool revoked);
    void serveReachability(zmq::socket_t& socket, const zmq::message_t& route,
                           const net::WireMessage& request, const std::string& connectionUser,
                           const std::string& peerAddress, bool revoked);
    void sendFinishedDials(zmq::socket_t& socket, std::chrono::milliseconds wait);
    void refuseMalformed(zmq::socket_t& socket, const zmq::message_t& route, const zmq::message_t& head,
                         const std::string& problem);
    // Logs `line`, with the control characters of untrusted text in it made harmless.
    void note(QString line) const;
    void reply(zmq::socket_t& socket, const zmq::message_t& route, wire::Envelope envelope, const QString& to,
               std::vector<zmq::message_t> data = {});

    net::MessageCodec codec_;
    Log log_;
    TokenRequestHandler handler_;
    std::optional<ShardRequestHandler> shards_;
    ReachabilityDialer dialer_;
    std::string endpoint_;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

} // namespace sahaj::admission
