#pragma once

#include "core/collab/LeaderTrust.h"
#include "core/collab/MatchmakingOptions.h"

#include <zmq.hpp>

#include <cstdint>

namespace sahaj::dht {
class DhtNode;
}

namespace sahaj::net {
class MessageCodec;
class SocketFactory;
} // namespace sahaj::net

namespace sahaj::collab {

// Group formation for one epoch (hivemind's matchmaking, made simpler and cycle-free; docs/protocol.md).
//
// Peers that accept connections declare themselves in the DHT (MatchmakingBoard) with an expiration of
// now + gatherTime; everyone orders the live declarations by (expiration, peer id) and the first leads.
// The others send it a JoinRequest through a DEALER and wait for ACCEPTED, then GroupBegin; a refusal or
// silence moves on to the next best (or makes the peer lead if it is best itself); a REDIRECT goes to the
// suggested, better leader. A leader accepts requests on its ROUTER and re-reads the declarations now and
// then: when a better leader appears it redirects its members there and joins it itself, so a leader only
// ever waits for a strictly better one and no waiting cycle can form. At its expiration (or once every
// declared peer joined, after minGatherTime) it plans the group (GroupPlanner) and sends GroupBegin to
// every member. Past the deadline a peer ends alone.
//
// A leader is a peer's claim about itself: its expiration bounds how long a member waits for its GroupBegin,
// a GroupBegin unlike the plan every peer makes is refused, and a leader that failed this peer is not
// followed again for a while (LeaderTrust; MatchmakingResult::problems says so).
//
// Runs on the calling thread, which owns the ROUTER and uses the DHT node. Every received message goes
// through MessageCodec::decode; a message that breaks the protocol is dropped.
class Matchmaking {
public:
    // router: this peer's bound ROUTER (nullptr for a client, which can only join). Throws
    // std::invalid_argument for a schema hash outside 16..64 bytes, a vector size that is not positive,
    // or a client given a router / a node without one.
    Matchmaking(dht::DhtNode& dht, const net::MessageCodec& codec, const net::SocketFactory& sockets,
                zmq::socket_t* router, MatchmakingOptions options);

    // self: this peer's role, endpoint (empty for a client), bandwidth and weight; its peer id is the
    // codec's. expected: the peers known (from their progress) to be at this epoch; a leader begins before
    // its gather time is up only once all of them, and every declared peer, have joined. Declarations
    // spread through the DHT in about a second, so without this two leaders that have not seen each other
    // yet could each begin a half group. Returns the group for `epoch`, or a group of one past the deadline.
    MatchmakingResult formGroup(std::uint64_t epoch, GroupMember self,
                                std::vector<std::string> expected = {});

private:
    dht::DhtNode& dht_;
    const net::MessageCodec& codec_;
    const net::SocketFactory& sockets_;
    zmq::socket_t* router_;
    MatchmakingOptions options_;
    LeaderTrust trust_; // across this peer's matchmakings
};

} // namespace sahaj::collab
