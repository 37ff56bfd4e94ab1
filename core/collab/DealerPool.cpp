#include "core/collab/DealerPool.h"

#include "core/net/SocketFactory.h"

#include <algorithm>
#include <stdexcept>

namespace sahaj::collab {

DealerPool::DealerPool(const net::SocketFactory& sockets, std::size_t capacity,
                       std::chrono::milliseconds maxIdle, std::uint64_t maxIdleBytes)
    : sockets_(sockets), capacity_(capacity), maxIdle_(maxIdle), maxIdleBytes_(maxIdleBytes) {
    if (capacity_ == 0 || maxIdle_ <= std::chrono::milliseconds::zero() || maxIdleBytes_ == 0)
        throw std::invalid_argument(
            "a dealer pool needs a capacity, an idle time and an idle byte bound above 0");
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
    if (expired(*found, Clock::now())) {
        kept_.erase(found);
        return std::nullopt;
    }
    zmq::socket_t socket = std::move(found->socket);
    kept_.erase(found);
    // What its last user was sent and did not read is not for the next one. Bounded: a peer that floods
    // this connection meanwhile is read no further than this.
    drainedBytes_ += drain(socket, 1024);
    ++reused_;
    return std::optional<zmq::socket_t>(std::move(socket));
}

std::uint64_t DealerPool::drain(zmq::socket_t& socket, int budget) {
    std::uint64_t bytes = 0;
    for (; budget > 0; --budget) {
        zmq::message_t frame;
        if (!socket.recv(frame, zmq::recv_flags::dontwait))
            break;
        bytes += frame.size();
        while (frame.more() && socket.recv(frame, zmq::recv_flags::dontwait))
            bytes += frame.size(); // the rest of that message: its frames come together
    }
    return bytes;
}

void DealerPool::drainKept() {
    const Clock::time_point now = Clock::now();
    std::erase_if(kept_, [&](Kept& kept) {
        if (expired(kept, now))
            return true; // expired: closed now rather than drained until the next keep()
        const std::uint64_t bytes = drain(kept.socket, 1024);
        drainedBytes_ += bytes;
        kept.bytes += bytes;
        if (kept.bytes <= maxIdleBytes_)
            return false;
        ++closedForBytes_; // closed as it goes: libzmq frees its queue
        return true;
    });
}

void DealerPool::keep(const std::string& endpoint, const std::string& serverKey, zmq::socket_t socket) {
    if (endpoint.empty() || !socket)
        return;
    std::erase_if(kept_,
                  [&](const Kept& kept) { return kept.endpoint == endpoint && kept.serverKey == serverKey; });
    const Clock::time_point now = Clock::now();
    kept_.push_back({endpoint, serverKey, std::move(socket), now});
    std::erase_if(kept_, [&](const Kept& kept) { return expired(kept, now); });
    while (kept_.size() > capacity_)
        kept_.pop_front();
}

} // namespace sahaj::collab
