#include "core/net/SocketFactory.h"

#include "core/net/WireLimits.h"

#include <stdexcept>

namespace sahaj::net {

SocketFactory::SocketFactory(zmq::context_t& context, std::string peerId, Options options)
    : context_(context), peerId_(std::move(peerId)), options_(options) {
    if (peerId_.size() != WireLimits::kPeerIdBytes)
        throw std::invalid_argument("a peer id must have " + std::to_string(WireLimits::kPeerIdBytes) +
                                    " bytes");
}

void SocketFactory::applyCommon(zmq::socket_t& socket) const {
    socket.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(WireLimits::kMaxDataFrameBytes));
    socket.set(zmq::sockopt::sndhwm, options_.sendHighWaterMark);
    socket.set(zmq::sockopt::rcvhwm, options_.receiveHighWaterMark);
    socket.set(zmq::sockopt::linger, options_.lingerMs);
    socket.set(zmq::sockopt::handshake_ivl, options_.handshakeMs);
    socket.set(zmq::sockopt::heartbeat_ivl, options_.heartbeatIntervalMs);
    socket.set(zmq::sockopt::heartbeat_timeout, options_.heartbeatTimeoutMs);
    socket.set(zmq::sockopt::heartbeat_ttl, options_.heartbeatTimeoutMs);
    socket.set(zmq::sockopt::reconnect_ivl, options_.reconnectMs);
    socket.set(zmq::sockopt::reconnect_ivl_max, options_.reconnectMaxMs);
    socket.set(zmq::sockopt::tcp_keepalive, 1);
}

zmq::socket_t SocketFactory::bindRouter(const std::string& endpoint) const {
    zmq::socket_t socket(context_, zmq::socket_type::router);
    applyCommon(socket);
    socket.set(zmq::sockopt::router_mandatory, 1);
    socket.set(zmq::sockopt::router_handover, 1);
    socket.bind(endpoint);
    return socket;
}

zmq::socket_t SocketFactory::connectDealer(const std::string& endpoint) const {
    zmq::socket_t socket(context_, zmq::socket_type::dealer);
    applyCommon(socket);
    socket.set(zmq::sockopt::routing_id, zmq::buffer(peerId_));
    socket.set(zmq::sockopt::immediate, 1);
    socket.connect(endpoint);
    return socket;
}

std::string SocketFactory::boundEndpoint(const zmq::socket_t& socket) {
    return socket.get(zmq::sockopt::last_endpoint);
}

} // namespace sahaj::net
