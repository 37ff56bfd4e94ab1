#pragma once

#include "core/collab/LeaderTrust.h"
#include "core/collab/MatchmakingBoard.h"
#include "core/collab/MatchmakingOptions.h"

#include <zmq.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

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
// A step of its caller's event loop (the collaboration thread's, which meanwhile keeps its records, token
// and status alive: docs/collaboration.md, "The collaboration thread"): start() it, then step() whenever
// pollItems() has something or every few tens of milliseconds, until phase() is Done; takeResult(). Its
// phases (Phase) change in one transition function, which reports each change to the log given. While it
// runs it owns the ROUTER: it answers join requests and keeps every other message (takeOtherMessages, and
// the result's early parts). formGroup() does all of it in one blocking call. Every received message goes
// through MessageCodec::decode; a message that breaks the protocol is dropped.
class Matchmaking {
public:
    enum class Phase {
        Idle,          // no matchmaking under way
        Choosing,      // picking the leader a REDIRECT suggested, or else reading the declarations
        Reading,       // for the DHT's declarations (options.dhtTimeout), then the best leader to follow
        Pausing,       // a refresh interval before choosing again (no leader yet, one to ask again)
        Leading,       // gathering members until the expiration, or until every peer expected joined
        Asking,        // sending a leader the JoinRequest, within the reply timeout
        AwaitingReply, // for the leader's answer
        AwaitingBegin, // accepted: for its GroupBegin, until its expiration and the grace
        Done,          // the group (or a group of one) is ready: takeResult()
    };
    static const char* nameOf(Phase phase);

    // router: this peer's bound ROUTER (nullptr for a client, which can only join). Throws
    // std::invalid_argument for a schema hash outside 16..64 bytes, a vector size that is not positive,
    // or a client given a router / a node without one.
    Matchmaking(dht::DhtNode& dht, const net::MessageCodec& codec, const net::SocketFactory& sockets,
                zmq::socket_t* router, MatchmakingOptions options);
    ~Matchmaking();
    Matchmaking(const Matchmaking&) = delete;
    Matchmaking& operator=(const Matchmaking&) = delete;

    // Called with a line for each phase change ("matchmaking 7: choosing -> leading: …"); may be empty.
    void onTransition(std::function<void(const std::string&)> log) { log_ = std::move(log); }

    // Begins forming the group for `epoch`. self: this peer's role, endpoint (empty for a client),
    // bandwidth and weight; its peer id is the codec's. expected: the peers known (from their progress) to
    // be at this epoch; a leader begins before its gather time is up only once all of them, and every
    // declared peer, have joined. Declarations spread through the DHT in about a second, so without this
    // two leaders that have not seen each other yet could each begin a half group. Throws
    // std::logic_error while another is under way (take its result first).
    void start(std::uint64_t epoch, GroupMember self, std::vector<std::string> expected = {});
    // Does what needs no waiting (the DHT is read in the background). An exception from the DHT or a socket
    // ends the matchmaking (back to Idle) and is passed on.
    void step();
    // Ends the matchmaking now with a group of one (Done; takeResult()), when the caller knows that no group
    // will form at its epoch (the collaboration has moved past it), but only while this peer has neither
    // asked a leader nor accepted a member: true if it did. A peer that only joins (a client) would
    // otherwise wait out the whole deadline at an epoch nobody leads any more.
    bool giveUp(const std::string& why);
    // The sockets step() waits on (the ROUTER, the DEALER to a leader), for the caller's poll.
    std::vector<zmq::pollitem_t> pollItems() const;
    Phase phase() const;
    bool active() const { return phase() != Phase::Idle; }
    // Messages that are not parts of a round, received meanwhile (state requests): the caller serves them
    // now rather than after the matchmaking.
    std::vector<net::WireMessage> takeOtherMessages();
    // The group for the epoch, or a group of one past the deadline; back to Idle. Throws std::logic_error
    // unless Done.
    MatchmakingResult takeResult();

    // A group `leaderId` began fell apart in its round on plans that did not fit each other (most members'
    // messages misfit this peer's plan): that leader is not followed for options.distrustLeadersFor.
    // Nothing bans it: a member can feign a misfit, though not most of a group's.
    void distrustLeader(const std::string& leaderId);

    // start(), then poll and step() until Done: the result.
    MatchmakingResult formGroup(std::uint64_t epoch, GroupMember self,
                                std::vector<std::string> expected = {});

private:
    class State;

    const net::MessageCodec& codec_;
    const net::SocketFactory& sockets_;
    zmq::socket_t* router_;
    MatchmakingOptions options_;
    MatchmakingBoard board_;
    LeaderTrust trust_; // across this peer's matchmakings
    // The last join request's id, across this peer's matchmakings: a kept connection (DealerPool) may bring
    // the reply to a request of an earlier one, which must not pass for this one's.
    std::uint64_t lastRequestId_ = 0;
    std::function<void(const std::string&)> log_;
    std::unique_ptr<State> state_;
};

} // namespace sahaj::collab
