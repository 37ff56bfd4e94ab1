#include "core/collab/Matchmaking.h"

#include "core/collab/AllReduceRound.h"
#include "core/collab/DealerPool.h"
#include "core/collab/GroupPlanner.h"
#include "core/collab/LeaderCandidate.h"
#include "core/collab/LeaderTrust.h"
#include "core/collab/MatchmakingBoard.h"
#include "core/collab/MemberCredentials.h"
#include "core/collab/RoundStash.h"
#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"
#include "core/net/WireLimits.h"

#include <QByteArray>
#include <QString>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>

namespace sahaj::collab {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Other messages kept for the caller: beyond this many, the all-reduce's timeouts handle what is dropped.
constexpr std::size_t kMaxEarlyMessages = 4096;
// Join requests held while a peer reads the declarations (RoundStash::costOf each): beyond this, the
// askers' reply timeouts. A request is a few hundred bytes; any admitted peer may send big ones meanwhile.
constexpr std::uint64_t kMaxHeldBytes = 1u << 20;
// Declared expirations remembered (one per peer that declared; beyond this many, forgotten at once).
constexpr std::size_t kMaxDeclarationsKept = 4096;
// Past its gather time a leader begins in a lull of joins only while at most this share of the expected
// peers (or one of them) is still out.
constexpr double kMostStillOut = 0.2;

// The steady-clock time at which the run's clock, reading `now` ms, will read `ms`: now when it has passed,
// and never more than a day ahead (a peer's expiration is its own claim).
Clock::time_point steadyAt(std::uint64_t ms, std::uint64_t now) {
    const std::uint64_t ahead = std::min<std::uint64_t>(ms > now ? ms - now : 0, 24ull * 3600 * 1000);
    return Clock::now() + std::chrono::milliseconds(ahead);
}

wire::MemberInfo infoOf(const GroupMember& member) {
    wire::MemberInfo info;
    info.set_peer_id(member.peerId);
    info.set_role(member.role);
    info.set_endpoint(member.endpoint);
    info.set_bandwidth(member.bandwidth);
    info.set_weight(member.weight);
    info.set_token(member.token);
    return info;
}

GroupMember memberOf(const wire::MemberInfo& info) {
    return {info.peer_id(), info.role(), info.endpoint(), info.bandwidth(), info.weight(), info.token(), {}};
}

std::string hexOf(const std::string& peerId) {
    return QByteArray::fromStdString(peerId).toHex().toStdString();
}

bool sameEncoding(const wire::Encoding& a, const wire::Encoding& b) {
    return a.dtype() == b.dtype() && a.block() == b.block();
}

} // namespace

// One group formation's state machine (Matchmaking::Phase), stepped by its caller's event loop; kept out of
// the header so that Matchmaking stays a small interface.
class Matchmaking::State {
public:
    State(MatchmakingBoard& board, const net::MessageCodec& codec, const net::SocketFactory& sockets,
          zmq::socket_t* router, const MatchmakingOptions& options, LeaderTrust& trust,
          const std::function<void(const std::string&)>& log, std::uint64_t& lastRequestId,
          std::uint64_t epoch, GroupMember self, std::vector<std::string> expected)
        : board_(board), codec_(codec), sockets_(sockets), router_(router), options_(options), trust_(trust),
          log_(log), epoch_(epoch), self_(std::move(self)), expected_(std::move(expected)),
          lastRequestId_(lastRequestId) {
        deadline_ = Clock::now() + options_.deadline;
        deadlineMs_ = board_.nowMs() + static_cast<std::uint64_t>(options_.deadline.count());
        if (router_)
            declare();
        enter(Phase::Choosing, router_ ? "declared for epoch " + std::to_string(epoch_)
                                       : "looking for a leader for epoch " + std::to_string(epoch_));
    }

    Phase phase() const { return phase_; }

    // Moves through the phases as far as what arrived and the clock allow, then answers the join requests
    // that arrived: after, so that a request is answered by the phase this step settled in (one that came
    // while this peer was still choosing is answered by the leader it has become, not "not a leader").
    // Nothing here waits: the DHT's declarations are read in the background (MatchmakingBoard::lookUp).
    void step() {
        if (phase_ == Phase::Done)
            return;
        advance();
        if (router_ && phase_ != Phase::Done)
            drainRouter();
    }

    void advance() {
        // A phase that changes goes on at once; one that waits for a message, a reading of the DHT or a time
        // returns. Bounded, so that a run of refusals hands the loop back now and then.
        for (int pass = 0; pass < 8 && phase_ != Phase::Done; ++pass) {
            moved_ = false;
            switch (phase_) {
            case Phase::Choosing:
                choose();
                break;
            case Phase::Reading:
                stepReading();
                break;
            case Phase::Pausing:
                if (Clock::now() >= std::min(pauseUntil_, deadline_))
                    enter(Phase::Choosing, "paused a refresh interval");
                break;
            case Phase::Leading:
                stepLeading();
                break;
            case Phase::Asking:
                stepAsking();
                break;
            case Phase::AwaitingReply:
                stepAwaitingReply();
                break;
            case Phase::AwaitingBegin:
                stepAwaitingBegin();
                break;
            case Phase::Idle:
            case Phase::Done:
                break;
            }
            if (!moved_)
                return;
        }
    }

    std::vector<zmq::pollitem_t> pollItems() {
        std::vector<zmq::pollitem_t> items;
        if (router_)
            items.push_back({router_->handle(), 0, ZMQ_POLLIN, 0});
        if (dealer_)
            items.push_back({dealer_->handle(), 0,
                             static_cast<short>(phase_ == Phase::Asking ? ZMQ_POLLOUT : ZMQ_POLLIN), 0});
        return items;
    }

    // Messages for other purposes that arrived so far, but parts of a round (which may be the group's
    // about to begin, and stay in the result).
    std::vector<net::WireMessage> takeOtherMessages() {
        std::vector<net::WireMessage> others;
        std::vector<net::WireMessage> kept;
        for (net::WireMessage& message : result_.early)
            (AllReduceRound::roundEpochOf(message.envelope) ? kept : others).push_back(std::move(message));
        result_.early = std::move(kept);
        return others;
    }

    MatchmakingResult take() { return std::move(result_); }

    // Ends the matchmaking alone before its deadline, if this peer is bound to no leader and no member yet.
    bool giveUp(const std::string& why) {
        if (phase_ != Phase::Choosing && phase_ != Phase::Reading && phase_ != Phase::Pausing)
            return false;
        alone();
        enter(Phase::Done, why);
        return true;
    }

private:
    // A member this leader accepted, and the request to answer should it redirect them.
    struct Accepted {
        wire::MemberInfo info;
        std::uint64_t requestId = 0;
        std::string curveKey; // from its token, checked when it asked (empty in runs that admit anyone)
        std::string route;    // the ROUTER's id for the connection its request came on
    };

    // The one transition function: every phase change of this matchmaking goes through here and is said.
    void enter(Phase next, const std::string& why) {
        const Phase was = std::exchange(phase_, next);
        moved_ = true;
        if (log_)
            log_("matchmaking " + std::to_string(epoch_) + ": " + nameOf(was) + " -> " + nameOf(next) + ": " +
                 why);
    }

    // Choosing: a REDIRECT's suggestion, else the declarations read anew (Reading).
    void choose() {
        if (pastDeadline())
            return;
        if (next_) {
            const LeaderCandidate target = *std::exchange(next_, std::nullopt);
            return target.peerId == self_.peerId ? startLeading() : startFollowing(target);
        }
        board_.lookUp(epoch_, options_.dhtTimeout);
        enter(Phase::Reading, "reading the declarations");
    }

    // Past the deadline: a group of one (true).
    bool pastDeadline() {
        if (Clock::now() < deadline_)
            return false;
        alone();
        enter(Phase::Done, "no group by the deadline: a group of one");
        return true;
    }

    // Reading: once the declarations are in (within options.dhtTimeout), the best leader this peer may
    // follow, which may be its own declaration.
    void stepReading() {
        std::optional<std::vector<LeaderCandidate>> found = board_.takeLookedUp(options_.schemaHash);
        if (!found) {
            pastDeadline();
            return;
        }
        takeCandidates(std::move(*found));
        const auto target = std::find_if(candidates_.begin(), candidates_.end(),
                                         [&](const LeaderCandidate& c) { return mayFollow(c); });
        if (target == candidates_.end()) {
            if (router_) {
                declare(); // not even this peer's declaration is live: declare anew and lead
                enter(Phase::Choosing, "its declaration had expired: declared anew");
            } else {
                pause("no leader to join yet");
            }
            return;
        }
        const LeaderCandidate chosen = *target;
        if (chosen.peerId == self_.peerId)
            startLeading();
        else
            startFollowing(chosen);
    }

    void pause(const std::string& why) {
        pauseUntil_ = std::min(deadline_, Clock::now() + options_.refreshInterval);
        enter(Phase::Pausing, why);
    }

    using CandidateKey = std::pair<std::string, std::uint64_t>; // a declaration: peer id, expiration

    static CandidateKey keyOf(const LeaderCandidate& candidate) {
        return {candidate.peerId, candidate.expirationMs};
    }

    LeaderCandidate own() const { return {self_.peerId, self_.endpoint, myExpirationMs_}; }

    // The longest a leader may gather, which its declaration's expiration promises.
    std::chrono::milliseconds longestGather() const {
        return std::max(options_.gatherTime, options_.maxGatherTime);
    }

    void declare() {
        const std::chrono::milliseconds gather =
            options_.splitPlans ? options_.minGatherTime : longestGather();
        myExpirationMs_ = board_.nowMs() + static_cast<std::uint64_t>(gather.count());
        gatherStart_ = Clock::now();
        lastJoin_ = gatherStart_;
        // The record outlives the gathering a little, so that late readers still find their leader.
        const auto ttl = std::chrono::ceil<std::chrono::seconds>(longestGather()) + 2s;
        board_.declare(epoch_, self_.endpoint, options_.schemaHash, myExpirationMs_, ttl);
    }

    // The live declarations as just read; this peer's own counts even before the DHT shows it. Each
    // one's expiration is kept, expired or not (holdToDeclaredExpiration).
    void takeCandidates(std::vector<LeaderCandidate> found) {
        if (declaredExpirations_.size() > kMaxDeclarationsKept)
            declaredExpirations_.clear();
        for (const LeaderCandidate& candidate : found)
            declaredExpirations_[candidate.peerId] = candidate.expirationMs;
        candidates_ = std::move(found);
        const std::uint64_t nowMs = board_.nowMs();
        std::erase_if(candidates_, [&](const LeaderCandidate& c) {
            return c.peerId == self_.peerId || c.expirationMs <= nowMs;
        });
        if (router_ && myExpirationMs_ > board_.nowMs()) {
            const LeaderCandidate me = own();
            candidates_.insert(std::find_if(candidates_.begin(), candidates_.end(),
                                            [&](const LeaderCandidate& c) { return me.betterThan(c); }),
                               me);
        }
        lastRefresh_ = Clock::now();
    }

    // This peer's own declaration always; another's unless it refused or ignored this peer, or its leader
    // failed this peer in this matchmaking or lately (LeaderTrust).
    bool mayFollow(const LeaderCandidate& candidate) const {
        if (candidate.peerId == self_.peerId)
            return true;
        const auto waiting = refusedUntil_.find(keyOf(candidate));
        return !refused_.count(keyOf(candidate)) && !failed_.count(candidate.peerId) &&
               (waiting == refusedUntil_.end() || Clock::now() >= waiting->second) &&
               trust_.follows(candidate.peerId, Clock::now());
    }

    // Leading: gathers members until the first of: every peer expected joined (and the least gather time
    // passed); the gather time passed, no new member came for the quiet time, and most of the expected are
    // in or nobody came at all (mostExpectedJoined); its expiration (the longest gather). Leaves for a better
    // leader if one appears. Peers start looking for a group over several seconds, as each learns that the
    // batch is full: a leader that began at a fixed time left those still arriving to form groups of their
    // own (the 40-volunteer soak: groups of 22, 8 and 6 in one epoch, each leader's gather time up with 38
    // peers expected; docs/soak.md).
    void startLeading() {
        leading_ = true;
        following_.reset();
        leadEnd_ = std::min(steadyAt(myExpirationMs_, board_.nowMs()), deadline_);
        enter(Phase::Leading, "its own declaration is the best");
    }

    void stepLeading() {
        const Clock::time_point now = Clock::now();
        const char* why = nullptr;
        if (now >= leadEnd_)
            why = "longest gather time up";
        else if (everyoneJoined() && now - gatherStart_ >= options_.minGatherTime)
            why = "every peer expected joined";
        else if (now - gatherStart_ >= options_.gatherTime && now - lastJoin_ >= options_.joinQuietTime &&
                 (mostExpectedJoined() || accepted_.empty()))
            why = accepted_.empty() ? "gather time up, nobody came" : "gather time up, nobody arriving";
        if (why) {
            drainRouter(); // requests already queued still make it in
            leading_ = false;
            begin();
            // Why it began, and what it saw: a split swarm is read from these lines (docs/soak.md).
            enter(Phase::Done, "began a group of " + std::to_string(result_.group.members.size()) + " (" +
                                   why + "; " + std::to_string(candidates_.size()) +
                                   " declaration(s) live, " + std::to_string(expected_.size()) +
                                   " peer(s) expected)");
            return;
        }
        if (!readAgain())
            return;
        const LeaderCandidate me = own();
        for (const LeaderCandidate& candidate : candidates_) {
            if (!candidate.betterThan(me))
                break;
            if (mayFollow(candidate)) {
                leading_ = false;
                redirectFollowers(candidate);
                next_ = candidate;
                enter(Phase::Choosing,
                      "a better leader appeared: " + net::LogText::shortHex(candidate.peerId));
                return;
            }
            if (log_ && passedOver_.insert(candidate.peerId).second)
                log_("matchmaking " + std::to_string(epoch_) + ": leading on past a better leader, " +
                     net::LogText::shortHex(candidate.peerId) + ", which refused or failed this peer");
        }
    }

    // Reads the declarations again a refresh interval after the last reading came in, without waiting: true
    // when a new reading came (candidates_).
    bool readAgain() {
        std::optional<std::vector<LeaderCandidate>> found = board_.takeLookedUp(options_.schemaHash);
        if (!found) {
            if (!board_.lookingUp() && Clock::now() - lastRefresh_ >= options_.refreshInterval)
                board_.lookUp(epoch_, options_.dhtTimeout);
            return false;
        }
        takeCandidates(std::move(*found));
        return true;
    }

    // Most of the peers expected at the epoch have joined: at most a fifth of them, or one, is still out
    // (in a small swarm one peer missing is common: dead, banned, or following another leader, and it
    // would hold every epoch to the longest gather). Peers come in waves, as each learns at its own
    // refresh that the batch is full: a lull of a couple of seconds is no sign that nobody else is coming
    // while a fifth of the expected are still out (the soak: 28 of 39 joined, the lull ended 0.1 s after
    // the leader began, and 9 more formed groups of their own). Expected peers that never come (dead, their
    // records still live) hold a leader to its longest gather at most. A leader nobody joined by its gather
    // time begins alone, as before, and looks again with a new declaration: one that starts early (the
    // coordinator, which trains nothing) otherwise spent its longest gather before the second wave came
    // (the soak: 23 of 39 at the end of its 15 s, then groups of 8, 4 and 3).
    bool mostExpectedJoined() const {
        const auto out = std::count_if(expected_.begin(), expected_.end(),
                                       [&](const std::string& peerId) { return !joined(peerId); });
        return out <= 1 || static_cast<double>(out) <= kMostStillOut * static_cast<double>(expected_.size());
    }

    bool joined(const std::string& peerId) const {
        return peerId == self_.peerId || accepted_.count(peerId) > 0;
    }

    // Every peer that declared for the epoch (as last read), and every peer expected at it, has joined.
    bool everyoneJoined() const {
        return std::all_of(candidates_.begin(), candidates_.end(),
                           [&](const LeaderCandidate& c) { return joined(c.peerId); }) &&
               std::all_of(expected_.begin(), expected_.end(),
                           [&](const std::string& peerId) { return joined(peerId); });
    }

    void redirectFollowers(const LeaderCandidate& better) {
        for (const auto& [peerId, accepted] : accepted_) {
            wire::Envelope envelope;
            envelope.set_request_id(accepted.requestId);
            wire::JoinReply* reply = envelope.mutable_join_reply();
            reply->set_code(wire::JoinReply::REDIRECT);
            reply->set_suggested_leader(better.peerId);
            reply->set_suggested_endpoint(better.endpoint);
            sendTo(accepted.route, std::move(envelope));
        }
        accepted_.clear();
    }

    // Plans the group of this leader and its accepted members and tells every member. A member that cannot
    // be reached is a silent member, which the all-reduce's timeouts handle.
    void begin() {
        std::vector<GroupMember> members{self_};
        for (const auto& [peerId, accepted] : accepted_) {
            members.push_back(memberOf(accepted.info));
            members.back().curveKey = accepted.curveKey;
        }
        if (options_.claims)
            options_.claims->cap(members, self_.peerId);
        result_.group = GroupPlanner::plan(std::move(members), epoch_, options_.encoding, options_.vectorSize,
                                           options_.partElements);
        result_.leader = true;
        result_.leaderId = self_.peerId;
        if (result_.group.members.size() < 2)
            return;
        const wire::GroupBegin begin = result_.group.toWire();
        for (const GroupMember& member : result_.group.members) {
            if (member.peerId == self_.peerId)
                continue;
            wire::Envelope envelope;
            *envelope.mutable_group_begin() = options_.splitPlans ? splitPlan(member.peerId) : begin;
            if (const auto it = accepted_.find(member.peerId); it != accepted_.end())
                sendTo(it->second.route, std::move(envelope));
        }
    }

    // GradientAttack::SplitPlans: the plan `recipient` is told, its own bandwidth taken as 16 times what it
    // declared (a valid plan on its own, and another one for every member).
    wire::GroupBegin splitPlan(const std::string& recipient) const {
        std::vector<GroupMember> members = result_.group.members;
        for (GroupMember& member : members)
            if (member.peerId == recipient)
                member.bandwidth = std::max(member.bandwidth, 1.0) * 16.0;
        GroupSpec spec = GroupPlanner::plan(std::move(members), epoch_, options_.encoding,
                                            options_.vectorSize, options_.partElements);
        spec.groupId = result_.group.groupId;
        return spec.toWire();
    }

    void alone() {
        result_.group = GroupPlanner::plan({self_}, epoch_, options_.encoding, options_.vectorSize,
                                           options_.partElements);
        result_.leader = false;
    }

    // Done with the DEALER to the leader followed: kept for the next time this peer asks it (DealerPool), or
    // closed.
    void releaseDealer() {
        if (dealer_ && options_.dealers && following_)
            options_.dealers->keep(following_->endpoint, following_->curveKey, std::move(*dealer_));
        dealer_.reset();
    }

    // Asking: sends `target` a JoinRequest through a DEALER of its own, within the reply timeout.
    void startFollowing(const LeaderCandidate& target) {
        leading_ = false;
        following_ = target;
        if (sockets_.secure() && target.curveKey.empty()) {
            refuse(target); // a leader whose token this peer has not seen: no key to expect
            enter(Phase::Choosing, "no key known for leader " + net::LogText::shortHex(target.peerId));
            return;
        }
        dealer_.reset();
        if (options_.dealers)
            dealer_ = options_.dealers->takeKept(target.endpoint, target.curveKey);
        const bool kept = dealer_.has_value();
        if (!kept)
            dealer_ = sockets_.connectDealer(target.endpoint, target.curveKey);
        requestId_ = ++lastRequestId_;
        wire::Envelope envelope;
        envelope.set_request_id(requestId_);
        wire::JoinRequest* request = envelope.mutable_join_request();
        request->set_epoch(epoch_);
        request->set_schema_hash(options_.schemaHash);
        *request->mutable_member() = infoOf(self_);
        request->set_expiration_ms(deadlineMs_);
        request_ = codec_.encode(std::move(envelope));
        replyBy_ = std::min(deadline_, Clock::now() + options_.joinReplyTimeout);
        enter(Phase::Asking, "asking leader " + net::LogText::shortHex(target.peerId) + " to join" +
                                 (kept ? " (over a kept connection)" : ""));
    }

    // A DEALER with ZMQ_IMMEDIATE queues nothing until its connection completes: the request waits for it.
    void stepAsking() {
        if (net::MessageCodec::send(*dealer_, request_, nullptr, true)) {
            request_.clear();
            enter(Phase::AwaitingReply, "asked");
        } else if (Clock::now() >= replyBy_) {
            const LeaderCandidate target = *following_;
            dealer_.reset(); // never connected: nothing worth keeping
            refuse(target);
            forgiveRedirectorsTo(target.peerId);
            enter(Phase::Choosing, "no connection to leader " + net::LogText::shortHex(target.peerId));
        }
    }

    void stepAwaitingReply() {
        const LeaderCandidate target = *following_;
        while (std::optional<net::WireMessage> message = receive(*dealer_, nullptr)) {
            const wire::Envelope& received = message->envelope;
            if (!received.has_join_reply() || received.request_id() != requestId_ ||
                received.sender() != target.peerId)
                continue;
            const wire::JoinReply& reply = received.join_reply();
            if (reply.code() == wire::JoinReply::REDIRECT)
                return redirect(target, reply);
            if (reply.code() == wire::JoinReply::NOT_A_LEADER)
                return askAgainLater(target,
                                     "leader " + net::LogText::shortHex(target.peerId) + " is not gathering");
            if (reply.code() != wire::JoinReply::ACCEPTED) {
                releaseDealer();
                refuse(target);
                enter(Phase::Choosing, "leader " + net::LogText::shortHex(target.peerId) +
                                           " refused: " + wire::JoinReply::Code_Name(reply.code()));
                return;
            }
            // The leader's expiration is its own claim: however early it says, the wait ends by then plus
            // the grace, and a leader that lets it pass is not followed again (LeaderTrust).
            promised_ = steadyAt(target.expirationMs, board_.nowMs()) + options_.beginGrace;
            beginBy_ = std::min(deadline_, promised_);
            enter(Phase::AwaitingBegin, "accepted by leader " + net::LogText::shortHex(target.peerId));
            return;
        }
        if (Clock::now() >= replyBy_)
            askAgainLater(target, "no answer from leader " + net::LogText::shortHex(target.peerId));
    }

    void stepAwaitingBegin() {
        const LeaderCandidate target = *following_;
        while (std::optional<net::WireMessage> message = receive(*dealer_, nullptr)) {
            const wire::Envelope& received = message->envelope;
            if (received.sender() != target.peerId)
                continue;
            // A kept connection may bring a GroupBegin the leader sent for an earlier matchmaking, after
            // this peer stopped waiting for it, or a reply to an earlier request: not this epoch's, and not
            // the leader's fault.
            if ((received.has_group_begin() && received.group_begin().epoch() != epoch_) ||
                (received.has_join_reply() && received.request_id() != requestId_))
                continue;
            if (received.has_group_begin()) {
                releaseDealer();
                if (acceptGroup(target, received.group_begin()))
                    enter(Phase::Done, "joined the group of " + std::to_string(result_.group.members.size()) +
                                           " that leader " + net::LogText::shortHex(target.peerId) +
                                           " began");
                else
                    enter(Phase::Choosing,
                          "leader " + net::LogText::shortHex(target.peerId) + " broke the plan");
                return;
            }
            if (received.has_join_reply() && received.join_reply().code() == wire::JoinReply::REDIRECT)
                return redirect(target, received.join_reply());
            if (received.has_join_reply() && received.join_reply().code() != wire::JoinReply::ACCEPTED) {
                releaseDealer();
                refuse(target);
                enter(Phase::Choosing, "leader " + net::LogText::shortHex(target.peerId) + " cancelled");
                return;
            }
        }
        if (readAgain())
            holdToDeclaredExpiration(target);
        if (Clock::now() < beginBy_)
            return;
        releaseDealer();
        if (promised_ <= deadline_)
            leaderBeganNothing(target);
        refuse(target);
        enter(Phase::Choosing, "leader " + net::LogText::shortHex(target.peerId) + " began no group in time");
    }

    // A leader this peer was redirected to before it saw its declaration was promised by the redirector's
    // expiration, which may be many seconds later than its own: once its declaration is read, the wait
    // ends by that (a liar that begins nothing otherwise kept one honest peer waiting while the other,
    // which had read it, had given up and was leading alone).
    void holdToDeclaredExpiration(const LeaderCandidate& target) {
        const auto declared = declaredExpirations_.find(target.peerId);
        if (declared == declaredExpirations_.end() || declared->second >= target.expirationMs)
            return;
        following_->expirationMs = declared->second;
        promised_ = steadyAt(declared->second, board_.nowMs()) + options_.beginGrace;
        beginBy_ = std::min(deadline_, promised_);
    }

    void leaderBeganNothing(const LeaderCandidate& target) {
        failed(target.peerId);
        const bool distrusted = trust_.beganNothing(target.peerId, Clock::now());
        result_.problems.push_back("leader " + hexOf(target.peerId) + " accepted this peer for epoch " +
                                   std::to_string(epoch_) + " and began no group by its expiration and " +
                                   std::to_string(options_.beginGrace.count()) + " ms more; " +
                                   (distrusted ? "its second time in a row: not followed for " +
                                                     std::to_string(trust_.distrustFor().count()) + " s"
                                               : "not followed for the rest of this matchmaking"));
    }

    // A leader that accepted this peer failed it: not followed again in this matchmaking.
    void failed(const std::string& leader) {
        failed_.insert(leader);
        forgiveRedirectorsTo(leader);
    }

    // The leaders that redirected this peer to `leader`, which failed it or could not be reached, were on
    // their way there too, and were failed alike: they may lead again, and are no longer refused (two
    // honest peers, one redirected by the other to a liar or to a dead leader whose declaration was still
    // live, otherwise each ended alone: the redirected one would not follow its redirector again).
    void forgiveRedirectorsTo(const std::string& leader) {
        if (const auto redirectors = redirectedBy_.find(leader); redirectors != redirectedBy_.end()) {
            for (const CandidateKey& key : redirectors->second)
                forgive(key);
            redirectedBy_.erase(redirectors);
        }
    }

    // Takes a declaration off the refused ones, once a matchmaking: a redirector that lies (always to a dead
    // or failing leader) would otherwise be asked again and again until the deadline, 5 s a time.
    bool forgive(const CandidateKey& key) {
        if (!forgiven_.insert(key).second)
            return false;
        refused_.erase(key);
        return true;
    }

    bool refuse(const LeaderCandidate& target) {
        refused_.insert(keyOf(target));
        return false;
    }

    // A target that did not answer in time, or was between groups (NOT_A_LEADER), while its declaration
    // is live: it may have been busy with a leader that then failed it, and be leading again a moment
    // later. Ask it once more after a refresh; the second time it is refused like any other (two honest
    // peers that had both followed a liar otherwise each ended alone: docs/protocol.md, Group formation).
    void askAgainLater(const LeaderCandidate& target, const std::string& why) {
        releaseDealer();
        if (!askedAgain_.insert(keyOf(target)).second) {
            refuse(target);
            enter(Phase::Choosing, why + ", again");
            return;
        }
        pause(why + ": asking again after a refresh");
    }

    // The target joined a better leader: follow it there. Its declaration may not have reached this peer's
    // view of the DHT yet; being better, it expires no later than the target.
    void redirect(const LeaderCandidate& target, const wire::JoinReply& reply) {
        releaseDealer();
        refuse(target);
        const std::string from = "leader " + net::LogText::shortHex(target.peerId) + " redirected";
        if (reply.suggested_leader() == self_.peerId || reply.suggested_leader() == target.peerId) {
            enter(Phase::Choosing, from + " to itself or this peer");
            return;
        }
        LeaderCandidate suggested{reply.suggested_leader(), reply.suggested_endpoint(), target.expirationMs};
        for (const LeaderCandidate& candidate : candidates_)
            if (candidate.peerId == suggested.peerId)
                suggested = candidate;
        if (mayFollow(suggested)) {
            redirectedBy_[suggested.peerId].push_back(keyOf(target));
            next_ = suggested;
            enter(Phase::Choosing, from + " to " + net::LogText::shortHex(suggested.peerId));
            return;
        }
        // The target is on its way to a leader this peer no longer follows (one that failed it): if honest,
        // it gives that leader up by the leader's expiration and the grace, as this peer did, and is then
        // leading or following someone else. Ask it again after that rather than leave it for good (two
        // honest peers that had both followed a liar otherwise each ended alone), once: a redirector that
        // lies again is refused. Meanwhile this peer chooses among the others, or leads.
        const std::string follows =
            from + " to " + net::LogText::shortHex(suggested.peerId) + ", which this peer does not follow";
        if (!forgive(keyOf(target))) {
            enter(Phase::Choosing, follows + ", again");
            return;
        }
        refusedUntil_[keyOf(target)] = givenUpBy(suggested);
        enter(Phase::Choosing, follows + ": asking again once it has given that leader up");
    }

    // When an honest peer following `leader` gives it up (AwaitingBegin): its latest declaration read, or the
    // one the redirector followed, expired, and the grace passed. The redirector may have read a declaration
    // of it newer than this peer's reading by a refresh.
    Clock::time_point givenUpBy(const LeaderCandidate& leader) const {
        std::uint64_t expirationMs = leader.expirationMs;
        if (const auto declared = declaredExpirations_.find(leader.peerId);
            declared != declaredExpirations_.end())
            expirationMs = std::max(expirationMs, declared->second);
        return std::min(deadline_, steadyAt(expirationMs, board_.nowMs()) + options_.beginGrace +
                                       options_.refreshInterval);
    }

    // Takes the group `target` began, if it is the group every peer of the run would plan: a leader may
    // not choose a part size, encoding or group size of its own (a part of one value, or a thousand
    // members, would cost every member gigabytes or a thousand connections; docs/protocol.md, "Group
    // formation").
    bool acceptGroup(const LeaderCandidate& target, const wire::GroupBegin& begin) {
        GroupSpec spec = GroupSpec::fromWire(begin);
        const std::string problem = planProblem(spec, target);
        if (!problem.empty()) {
            failed(target.peerId);
            trust_.brokePlan(target.peerId, Clock::now());
            result_.problems.push_back("leader " + hexOf(target.peerId) + " began a group for epoch " +
                                       std::to_string(epoch_) + " unlike the run's plan (" + problem +
                                       "): not followed for " + std::to_string(trust_.distrustFor().count()) +
                                       " s");
            return refuse(target);
        }
        trust_.beganGroup(target.peerId);
        result_.group = std::move(spec);
        result_.leader = false;
        result_.leaderId = target.peerId;
        return true;
    }

    // What in the group `target` began breaks the plan this peer would make, or nothing; binds the
    // members' CURVE keys from their tokens on the way (MemberCredentials::bind).
    std::string planProblem(GroupSpec& spec, const LeaderCandidate& target) const {
        const int me = spec.indexOf(self_.peerId);
        if (spec.epoch != epoch_)
            return "epoch " + std::to_string(spec.epoch);
        if (me < 0 || spec.members[static_cast<std::size_t>(me)].role != self_.role)
            return "this peer missing, or in another role";
        if (spec.indexOf(target.peerId) < 0)
            return "the leader missing";
        if (spec.members.size() > options_.maxGroupSize)
            return std::to_string(spec.members.size()) + " members, more than " +
                   std::to_string(options_.maxGroupSize);
        if (spec.vectorSize != options_.vectorSize)
            return "a vector of " + std::to_string(spec.vectorSize) + " values, not " +
                   std::to_string(options_.vectorSize);
        if (spec.partElements != options_.partElements)
            return "parts of " + std::to_string(spec.partElements) + " values, not " +
                   std::to_string(options_.partElements);
        if (!sameEncoding(spec.encoding, options_.encoding))
            return "another encoding";
        if (!MemberCredentials::bind(spec.members, options_.admission))
            return "a member without a valid token";
        return {};
    }

    // To the connection `routeId` names on the ROUTER: the one a member's request came on (libzmq names
    // connections itself, so no peer can claim another's: SocketFactory).
    void sendTo(const std::string& routeId, wire::Envelope envelope) {
        std::vector<zmq::message_t> frames = codec_.encode(std::move(envelope));
        const zmq::message_t route(routeId.data(), routeId.size());
        net::MessageCodec::send(*router_, frames, &route,
                                true); // a peer gone or not reading is not waited for
    }

    // Decoded and validated, or nullopt when nothing was there or the message broke the protocol (dropped).
    std::optional<net::WireMessage> receive(zmq::socket_t& socket, zmq::message_t* route) {
        try {
            std::optional<std::vector<zmq::message_t>> frames =
                net::MessageCodec::receive(socket, 0ms, route);
            if (!frames)
                return std::nullopt;
            return codec_.decode(std::move(*frames));
        } catch (const net::ProtocolViolation&) {
            ++violations_;
            return std::nullopt;
        }
    }

    // Answers the join requests that arrived, but holds those that come while this peer reads the
    // declarations until it knows whether it leads; keeps every other message for the caller.
    void drainRouter() {
        if (phase_ != Phase::Reading) {
            for (const auto& [message, route] : std::exchange(held_, {}))
                answer(message, route);
            heldBytes_ = 0;
        }
        for (int budget = 64; budget > 0; --budget) {
            zmq::message_t route;
            std::optional<net::WireMessage> message = receive(*router_, &route);
            if (!message) {
                if (router_->get(zmq::sockopt::events) & ZMQ_POLLIN)
                    continue; // a dropped message; more are waiting
                return;
            }
            if (message->envelope.has_join_request()) {
                if (phase_ != Phase::Reading)
                    answer(*message, route.to_string());
                else if (const std::uint64_t cost = RoundStash::costOf(*message);
                         heldBytes_ + cost <= kMaxHeldBytes) {
                    heldBytes_ += cost;
                    held_.emplace_back(std::move(*message), route.to_string());
                }
            } else if (result_.early.size() < kMaxEarlyMessages) {
                message->route = std::move(route);
                result_.early.push_back(std::move(*message));
            }
        }
    }

    void answer(const net::WireMessage& message, const std::string& route) {
        const std::string& sender = message.envelope.sender();
        if (sender == self_.peerId)
            return; // a request in this peer's own name: dropped
        wire::Envelope envelope;
        envelope.set_request_id(message.envelope.request_id());
        wire::JoinReply* reply = envelope.mutable_join_reply();
        reply->set_code(
            judge(message.envelope.join_request(), message.envelope.request_id(), sender, route, *reply));
        sendTo(route, std::move(envelope));
    }

    wire::JoinReply::Code judge(const wire::JoinRequest& request, std::uint64_t requestId,
                                const std::string& sender, const std::string& route, wire::JoinReply& reply) {
        if (!leading_) {
            if (!following_)
                return wire::JoinReply::NOT_A_LEADER;
            // The leader this peer is joining is better than this peer in its view.
            reply.set_suggested_leader(following_->peerId);
            reply.set_suggested_endpoint(following_->endpoint);
            return wire::JoinReply::REDIRECT;
        }
        if (request.epoch() != epoch_)
            return wire::JoinReply::BAD_EPOCH;
        if (request.schema_hash() != options_.schemaHash)
            return wire::JoinReply::BAD_SCHEMA;
        if (request.expiration_ms() <= board_.nowMs())
            return wire::JoinReply::EXPIRED;
        std::string curveKey;
        if (options_.admission)
            curveKey = MemberCredentials::curveKeyOf(sender, request.member().role(),
                                                     request.member().token(), *options_.admission,
                                                     static_cast<qint64>(board_.nowMs() / 1000));
        if (request.member().peer_id() != sender || (options_.admission && curveKey.empty()))
            return wire::JoinReply::PROTOCOL_VIOLATION; // someone else's entry, or no valid token
        if (!accepted_.count(sender)) {
            if (accepted_.size() + 1 >= options_.maxGroupSize)
                return wire::JoinReply::GROUP_IS_FULL;
            lastJoin_ = Clock::now();
        }
        accepted_[sender] = {request.member(), requestId, std::move(curveKey), route};
        return wire::JoinReply::ACCEPTED;
    }

    MatchmakingBoard& board_;
    const net::MessageCodec& codec_;
    const net::SocketFactory& sockets_;
    zmq::socket_t* router_;
    const MatchmakingOptions& options_;
    LeaderTrust& trust_;
    const std::function<void(const std::string&)>& log_;
    const std::uint64_t epoch_;
    const GroupMember self_;
    const std::vector<std::string> expected_;

    Clock::time_point deadline_;
    std::uint64_t deadlineMs_ = 0;
    std::uint64_t myExpirationMs_ = 0; // of this peer's live declaration (0: none)
    Clock::time_point gatherStart_;
    Clock::time_point lastJoin_; // the last new member's request (or the declaration)
    Clock::time_point lastRefresh_;
    std::vector<LeaderCandidate> candidates_;                    // best first, as last read
    std::map<std::string, std::uint64_t> declaredExpirations_;   // each declaration read, by peer id
    std::vector<std::pair<net::WireMessage, std::string>> held_; // join requests and their routes
    std::uint64_t heldBytes_ = 0;                                // their cost (RoundStash::costOf)
    std::set<CandidateKey> refused_;    // declarations that refused or ignored this peer
    std::set<CandidateKey> askedAgain_; // declarations given a second request (askAgainLater)
    std::set<CandidateKey> forgiven_;   // refusals taken back (forgive), once each
    // Redirectors on their way to a leader that failed this peer: not asked before they have given it up.
    std::map<CandidateKey, Clock::time_point> refusedUntil_;
    std::set<std::string> failed_;     // leaders that accepted it and then failed it, whatever they declare
    std::set<std::string> passedOver_; // better leaders this leader did not join, said once each (by peer id:
                                       // a liar re-declares twice a second)
    // Per leader a REDIRECT sent this peer to: the declarations refused for redirecting it there.
    std::map<std::string, std::vector<CandidateKey>> redirectedBy_;
    bool leading_ = false;
    std::optional<LeaderCandidate> following_; // the leader this peer is asking or waiting for
    std::map<std::string, Accepted> accepted_; // by peer id
    // Across this peer's matchmakings (Matchmaking::lastRequestId_): a kept DEALER (DealerPool) may still
    // bring the reply to a request of an earlier one.
    std::uint64_t& lastRequestId_;
    std::uint64_t violations_ = 0;
    MatchmakingResult result_;

    Phase phase_ = Phase::Idle;
    bool moved_ = false;                  // the phase changed in this pass of step()
    std::optional<LeaderCandidate> next_; // a leader a REDIRECT suggested, or a better one found leading
    Clock::time_point pauseUntil_;        // Pausing
    Clock::time_point leadEnd_;           // Leading
    std::optional<zmq::socket_t> dealer_; // Asking, AwaitingReply, AwaitingBegin: to following_
    std::vector<zmq::message_t> request_; // Asking: the JoinRequest, until sent
    std::uint64_t requestId_ = 0;
    Clock::time_point replyBy_;  // Asking, AwaitingReply
    Clock::time_point promised_; // AwaitingBegin: the leader's expiration and the grace
    Clock::time_point beginBy_;  // AwaitingBegin: that, within the deadline
};

Matchmaking::Matchmaking(dht::DhtNode& dht, const net::MessageCodec& codec, const net::SocketFactory& sockets,
                         zmq::socket_t* router, MatchmakingOptions options)
    : codec_(codec), sockets_(sockets), router_(router), options_(std::move(options)),
      board_(dht, QString::fromStdString(codec.runId())), trust_(options_.distrustLeadersFor) {
    if (options_.schemaHash.size() < 16 || options_.schemaHash.size() > net::WireLimits::kMaxHashBytes)
        throw std::invalid_argument("the schema hash must be 16 to 64 bytes (a sha256 is 32)");
    if (options_.vectorSize <= 0)
        throw std::invalid_argument("the vector to average must hold at least one value");
    if (options_.partElements < 1 || options_.partElements > net::WireLimits::kMaxPartElements)
        throw std::invalid_argument("the part size must be 1 to " +
                                    std::to_string(net::WireLimits::kMaxPartElements) + " values");
    if (options_.gatherTime <= 0ms || options_.maxGatherTime < 0ms || options_.joinQuietTime < 0ms ||
        options_.refreshInterval <= 0ms || options_.maxGroupSize < 1 ||
        options_.maxGroupSize > net::WireLimits::kMaxGroupSize)
        throw std::invalid_argument("matchmaking needs a positive gather time and refresh interval, no "
                                    "negative longest gather or quiet time, and a group size of 1 to " +
                                    std::to_string(net::WireLimits::kMaxGroupSize));
}

Matchmaking::~Matchmaking() = default;

const char* Matchmaking::nameOf(Phase phase) {
    switch (phase) {
    case Phase::Idle:
        return "idle";
    case Phase::Choosing:
        return "choosing";
    case Phase::Reading:
        return "reading";
    case Phase::Pausing:
        return "pausing";
    case Phase::Leading:
        return "leading";
    case Phase::Asking:
        return "asking";
    case Phase::AwaitingReply:
        return "awaiting reply";
    case Phase::AwaitingBegin:
        return "awaiting begin";
    case Phase::Done:
        return "done";
    }
    return "?";
}

void Matchmaking::start(std::uint64_t epoch, GroupMember self, std::vector<std::string> expected) {
    if (state_)
        throw std::logic_error("a matchmaking is under way: take its result first");
    self.peerId = codec_.peerId();
    if ((self.role == wire::ROLE_CLIENT) != (router_ == nullptr))
        throw std::invalid_argument("a client joins through DEALERs only; every other role needs its ROUTER");
    if (router_ && self.endpoint.empty())
        self.endpoint = net::SocketFactory::boundEndpoint(*router_);
    try {
        net::MessageValidator::checkMember(infoOf(self), "this peer");
    } catch (const net::ProtocolViolation& e) {
        throw std::invalid_argument(std::string("cannot join a group as described: ") + e.what());
    }
    state_ = std::make_unique<State>(board_, codec_, sockets_, router_, options_, trust_, log_,
                                     lastRequestId_, epoch, std::move(self), std::move(expected));
}

void Matchmaking::step() {
    if (!state_)
        return;
    try {
        state_->step();
    } catch (...) {
        state_.reset(); // a DHT or socket error ends this matchmaking; the caller may start another
        throw;
    }
}

bool Matchmaking::giveUp(const std::string& why) {
    return state_ && state_->giveUp(why);
}

std::vector<zmq::pollitem_t> Matchmaking::pollItems() const {
    return state_ ? state_->pollItems() : std::vector<zmq::pollitem_t>{};
}

Matchmaking::Phase Matchmaking::phase() const {
    return state_ ? state_->phase() : Phase::Idle;
}

std::vector<net::WireMessage> Matchmaking::takeOtherMessages() {
    return state_ ? state_->takeOtherMessages() : std::vector<net::WireMessage>{};
}

MatchmakingResult Matchmaking::takeResult() {
    if (phase() != Phase::Done)
        throw std::logic_error("no matchmaking has finished");
    MatchmakingResult result = state_->take();
    state_.reset();
    return result;
}

void Matchmaking::distrustLeader(const std::string& leaderId) {
    trust_.brokePlan(leaderId, std::chrono::steady_clock::now());
}

MatchmakingResult Matchmaking::formGroup(std::uint64_t epoch, GroupMember self,
                                         std::vector<std::string> expected) {
    start(epoch, std::move(self), std::move(expected));
    step();
    while (phase() != Phase::Done) {
        std::vector<zmq::pollitem_t> items = pollItems();
        // Times (a pause, a leader's expiration, a reply's deadline) are checked by step(): a short tick.
        if (items.empty())
            std::this_thread::sleep_for(10ms);
        else
            zmq::poll(items.data(), items.size(), 10ms);
        step();
    }
    return takeResult();
}

} // namespace sahaj::collab
