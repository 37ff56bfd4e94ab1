#include "core/collab/DealerPool.h"

#include "core/net/SocketFactory.h"

#include <algorithm>
#include <stdexcept>

namespace sahaj::collab {

DealerPool::DealerPool(const net::SocketFactory& sockets, std::size_t capacity,
                       std::chrono::milliseconds maxIdle)
    : sockets_(sockets), capacity_(capacity), maxIdle_(maxIdle) {
    if (capacity_ == 0 || maxIdle_ <= std::chrono::milliseconds::zero())
        throw std::invalid_argument("a dealer pool needs a capacity and an idle time above 0");
}

zmq::socket_t DealerPool::take(const std::string& endpoint, const std::string& serverKey) {
    if (std::optional<zmq::socket_t> kept = takeKept(endpoint, serverKey))
        return std::move(*kept);
    ++connected_;
    return sockets_.connectDealer(endpoint, serverKey);
}

std::optional<zmq::socket_t> DealerPool::takeKept(const std::string& endpoint, const std::string& serverKey) {
    const auto found = std::find_if(kept_.begin(), kept_.end(), [&](const Kept& kept) {
        return kept.endpoint == endpoint && kept.serverKey == serverKey;
    });
    if (found == kept_.end())
        return std::nullopt;
    if (Clock::now() - found->since > maxIdle_) {
        kept_.erase(found);
        return std::nullopt;
    }
    zmq::socket_t socket = std::move(found->socket);
    kept_.erase(found);
    // What its last user was sent and did not read is not for the next one. Bounded: a peer that floods
    // this connection meanwhile is read no further than this.
    for (int budget = 1024; budget > 0; --budget) {
        zmq::message_t frame;
        if (!socket.recv(frame, zmq::recv_flags::dontwait))
            break;
        while (frame.more() && socket.recv(frame, zmq::recv_flags::dontwait)) {
        } // the rest of that message: its frames come together
    }
    ++reused_;
    return std::optional<zmq::socket_t>(std::move(socket));
}

void DealerPool::keep(const std::string& endpoint, const std::string& serverKey, zmq::socket_t socket) {
    if (endpoint.empty() || !socket)
        return;
    std::erase_if(kept_,
                  [&](const Kept& kept) { return kept.endpoint == endpoint && kept.serverKey == serverKey; });
    const Clock::time_point now = Clock::now();
    kept_.push_back({endpoint, serverKey, std::move(socket), now});
    std::erase_if(kept_, [&](const Kept& kept) { return now - kept.since > maxIdle_; });
    while (kept_.size() > capacity_)
        kept_.pop_front();
}

} // namespace sahaj::collab
