#pragma once

#include <zmq.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <string>

namespace sahaj::net {
class SocketFactory;
}

namespace sahaj::collab {

// The DEALERs this peer keeps connected to other peers' ROUTERs between one use and the next, so that asking
// a leader it has met takes no new connection. A connection costs a TCP and a CURVE handshake, which on a
// loaded machine or a full line take seconds (the 40-volunteer soak: 178 joins in 20 minutes found no
// connection to the leader within the 5 s reply timeout, 145 of them to a peer they had averaged with
// before, and missed its group; docs/soak.md). Every member of a round connects to every aggregator of its
// group: those DEALERs are kept here when the round ends, and Matchmaking takes one when it asks that peer
// to lead it.
//
// Bounded: at most `capacity` sockets, each kept at most `maxIdle` (the oldest go first), so its memory is
// a few dozen idle connections whatever the swarm's size; and in bytes: what an idle connection brings is
// read and dropped (drainKept, every second), so that a kept socket holds no more than a second's arrivals,
// and one that brings more than `maxIdleBytes` while kept is closed. Left in its queue until the next
// take(), it held up to 1,000 messages of up to the wire's frame limit each, per socket, for as long as a
// peer kept sending. A socket is someone's at a time: take() hands it
// over and forgets it. Its queue may still hold what its last user was sent (a late average, a reply):
// take() drops whatever has arrived, and users check every message (sender, request id, group, epoch).
// Owned by the collaboration thread, like the sockets in it.
class DealerPool {
public:
    using Clock = std::chrono::steady_clock;

    // A late average on a kept connection is one aggregator's span of one round, at most the whole vector:
    // sahajBERT's is 69 MiB in fp32 (18,105,474 values). What a connection brings beyond that while idle
    // is a flood, read for nothing.
    static constexpr std::uint64_t kMaxIdleBytes = 128ull << 20;

    explicit DealerPool(const net::SocketFactory& sockets, std::size_t capacity = 64,
                        std::chrono::milliseconds maxIdle = std::chrono::minutes(5),
                        std::uint64_t maxIdleBytes = kMaxIdleBytes);
    DealerPool(const DealerPool&) = delete;
    DealerPool& operator=(const DealerPool&) = delete;

    // A DEALER to the ROUTER at `endpoint` whose CURVE key is `serverKey`: the one kept for both, emptied
    // of what arrived meanwhile, else a new one (SocketFactory::connectDealer, whose exceptions pass).
    zmq::socket_t take(const std::string& endpoint, const std::string& serverKey);
    // The kept one alone (emptied as above), or nothing: for a caller that says which it got.
    std::optional<zmq::socket_t> takeKept(const std::string& endpoint, const std::string& serverKey);
    // Keeps `socket` for the next take() of the same endpoint and key (replacing one kept for them), then
    // drops any kept longer than maxIdle and the oldest beyond capacity. An empty endpoint keeps nothing.
    void keep(const std::string& endpoint, const std::string& serverKey, zmq::socket_t socket);

    // Reads and drops what reached the kept sockets since the last call, and closes those that brought
    // more than maxIdleBytes since they were kept, and those kept longer than maxIdle. The collaboration
    // thread calls it every second.
    void drainKept();

    std::size_t size() const { return kept_.size(); }
    // Bytes read and dropped from kept sockets (drainKept and take), and sockets closed for bringing too
    // many.
    std::uint64_t drainedBytes() const { return drainedBytes_; }
    std::size_t closedForBytes() const { return closedForBytes_; }
    // Sockets take() found kept, and ones it had to connect.
    std::size_t reused() const { return reused_; }
    std::size_t connected() const { return connected_; }

private:
    struct Kept {
        std::string endpoint;
        std::string serverKey;
        zmq::socket_t socket;
        Clock::time_point since;
        std::uint64_t bytes = 0; // brought while kept
    };
    // Kept longer than maxIdle at `now`: closed, never handed out again.
    bool expired(const Kept& kept, Clock::time_point now) const { return now - kept.since > maxIdle_; }
    // Reads and drops what `socket` holds, up to `budget` messages; the bytes.
    std::uint64_t drain(zmq::socket_t& socket, int budget);

    const net::SocketFactory& sockets_;
    std::size_t capacity_;
    std::chrono::milliseconds maxIdle_;
    std::uint64_t maxIdleBytes_;
    std::list<Kept> kept_; // oldest first
    std::size_t reused_ = 0;
    std::size_t connected_ = 0;
    std::uint64_t drainedBytes_ = 0;
    std::size_t closedForBytes_ = 0;
};

} // namespace sahaj::collab
