#include "core/net/SocketFactory.h"

#include "core/net/WireLimits.h"

#include <stdexcept>

namespace sahaj::net {

namespace {

constexpr std::size_t kCurveKeyBytes = 32;
constexpr std::size_t kMaxZapDomainBytes = 254;
// ZMQ_ZAP_ENFORCE_DOMAIN: a stable option of libzmq >= 4.3 that its zmq.h still lists among the drafts,
// so the number is spelled here when the header hides it.
#ifdef ZMQ_ZAP_ENFORCE_DOMAIN
constexpr int kZapEnforceDomain = ZMQ_ZAP_ENFORCE_DOMAIN;
#else
constexpr int kZapEnforceDomain = 93;
#endif

void requireCurveKey(const std::string& key, const char* what) {
    if (key.size() != kCurveKeyBytes)
        throw std::invalid_argument(std::string(what) + " must have " + std::to_string(kCurveKeyBytes) +
                                    " bytes, not " + std::to_string(key.size()));
}

void requireZapDomain(const std::string& domain) {
    if (domain.empty() || domain.size() > kMaxZapDomainBytes)
        throw std::invalid_argument("a ZAP domain must have 1 to " + std::to_string(kMaxZapDomainBytes) +
                                    " bytes");
}

} // namespace

SocketFactory::SocketFactory(zmq::context_t& context, std::string peerId, Options options,
                             std::optional<Curve> curve)
    : context_(context), options_(options), curve_(std::move(curve)) {
    if (peerId.size() != WireLimits::kPeerIdBytes)
        throw std::invalid_argument("a peer id must have " + std::to_string(WireLimits::kPeerIdBytes) +
                                    " bytes");
    if (options_.routerMaxMessageBytes <= 0 || options_.dealerMaxMessageBytes <= 0)
        throw std::invalid_argument("a socket's largest message must be at least one byte");
    if (curve_) {
        requireCurveKey(curve_->publicKey, "a CURVE public key");
        requireCurveKey(curve_->secretKey, "a CURVE secret key");
        requireZapDomain(curve_->zapDomain);
    }
}

void SocketFactory::applyCommon(zmq::socket_t& socket, std::int64_t maxMessageBytes) const {
    socket.set(zmq::sockopt::maxmsgsize, maxMessageBytes + kTransportOverheadBytes);
    socket.set(zmq::sockopt::sndhwm, options_.sendHighWaterMark);
    socket.set(zmq::sockopt::rcvhwm, options_.receiveHighWaterMark);
    socket.set(zmq::sockopt::linger, options_.lingerMs);
    socket.set(zmq::sockopt::handshake_ivl, options_.handshakeMs);
    // heartbeat_ivl stays 0 (libzmq's default): see the header.
    socket.set(zmq::sockopt::reconnect_ivl, options_.reconnectMs);
    socket.set(zmq::sockopt::reconnect_ivl_max, options_.reconnectMaxMs);
    socket.set(zmq::sockopt::tcp_keepalive, 1);
    socket.set(zmq::sockopt::tcp_keepalive_idle, options_.keepaliveIdleS);
    socket.set(zmq::sockopt::tcp_keepalive_intvl, options_.keepaliveIntervalS);
    socket.set(zmq::sockopt::tcp_keepalive_cnt, options_.keepaliveProbes);
    socket.set(zmq::sockopt::tcp_maxrt, options_.maxRetransmitMs);
}

zmq::socket_t SocketFactory::bindRouter(const std::string& endpoint) const {
    return bindRouter(endpoint, curve_ ? curve_->zapDomain : std::string());
}

zmq::socket_t SocketFactory::bindRouter(const std::string& endpoint, const std::string& zapDomain) const {
    zmq::socket_t socket(context_, zmq::socket_type::router);
    applyCommon(socket, options_.routerMaxMessageBytes);
    socket.set(zmq::sockopt::router_mandatory, 1);
    if (curve_) {
        requireZapDomain(zapDomain);
        socket.set(zmq::sockopt::curve_server, 1);
        socket.set(zmq::sockopt::curve_secretkey, zmq::buffer(curve_->secretKey));
        socket.set(zmq::sockopt::zap_domain, zapDomain);
        // Without it libzmq admits every client when the context has no ZAP handler.
        const int enforce = 1;
        if (zmq_setsockopt(socket.handle(), kZapEnforceDomain, &enforce, sizeof enforce) != 0)
            throw zmq::error_t();
    }
    socket.bind(endpoint);
    return socket;
}

zmq::socket_t SocketFactory::connectDealer(const std::string& endpoint, const std::string& serverKey) const {
    if (curve_)
        requireCurveKey(serverKey, "the server's CURVE public key");
    zmq::socket_t socket(context_, zmq::socket_type::dealer);
    applyCommon(socket, options_.dealerMaxMessageBytes);
    socket.set(zmq::sockopt::immediate, 1);
    if (curve_) {
        socket.set(zmq::sockopt::curve_serverkey, zmq::buffer(serverKey));
        socket.set(zmq::sockopt::curve_publickey, zmq::buffer(curve_->publicKey));
        socket.set(zmq::sockopt::curve_secretkey, zmq::buffer(curve_->secretKey));
    }
    socket.connect(endpoint);
    return socket;
}

std::string SocketFactory::boundEndpoint(const zmq::socket_t& socket) {
    return socket.get(zmq::sockopt::last_endpoint);
}

std::string SocketFactory::authenticatedUser(const zmq::message_t& frame) {
    // The C call answers null for an absent property where message_t::gets() would throw.
    const char* user = zmq_msg_gets(frame.handle(), "User-Id");
    return user ? std::string(user) : std::string();
}

std::string SocketFactory::peerAddress(const zmq::message_t& frame) {
    const char* address = zmq_msg_gets(frame.handle(), "Peer-Address");
    return address ? std::string(address) : std::string();
}

} // namespace sahaj::net
