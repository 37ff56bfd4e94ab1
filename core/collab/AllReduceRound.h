#pragma once

#include "core/collab/CenteredClip.h"
#include "core/collab/ElementRange.h"
#include "core/collab/GroupSpec.h"
#include "core/net/WireMessage.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sahaj::net {
class MessageCodec;
class SocketFactory;
} // namespace sahaj::net

namespace sahaj::security {
class PeerIdentity;
} // namespace sahaj::security

namespace sahaj::collab {

class DealerPool;

// A range of the averaged vector whose values may not fall below a floor: a state round's second moments
// (LAMB's v) are never negative, and one negative value would make the averaged state unusable for every
// member. Checked on every part as it arrives: a sender whose part breaks it is excluded and named.
struct ValueFloor {
    ElementRange range;
    float lowest = 0.0f;
    std::string what; // "a second moment", for the reason given
};

struct AllReduceOptions {
    // An aggregator excludes a sender it has heard nothing from for this long (for the parts still owed).
    std::chrono::milliseconds senderTimeout{15000};
    // A member gives up an aggregator it has heard nothing from for this long: that span keeps the local
    // values. Longer than senderTimeout: an aggregator waiting out a silent sender says nothing meanwhile.
    std::chrono::milliseconds aggregatorTimeout{30000};
    // A member streams its parts once its connections to the aggregators are up and every member that
    // sends has connected to it (MemberConnected, docs/protocol.md), or once this wait is over: start-up
    // jitter is covered, and a member still missing by then is late or gone and is not waited for.
    std::chrono::milliseconds connectWait{1000};
    // The whole round; past it, whatever is not averaged keeps the local values ("proceed with local").
    std::chrono::milliseconds deadline{120000};
    // The user's caps in bytes per second (0: none), enforced by pacing sends and reads.
    double uploadBytesPerSecond = 0.0;
    double downloadBytesPerSecond = 0.0;
    // The most each of the round's connections may send, in bytes per second (net::ConnectionPacer; 0:
    // no pacing). The caller sets it from a bandwidth it knows (ConnectionPacer::rateFor), never from a
    // guess: the engine from net::LinkBandwidth::pacingBytesPerSecond, the benchmark's members from their
    // links' real rates (docs/collaboration.md).
    double pacingBytesPerSecond = 0.0;
    // How this member aggregates its span: the weighted mean (nullopt), or CenteredClip, which a minority
    // of senders sending huge or reversed gradients cannot drag far (the run's choice, see RunManifest).
    // Clipping needs every sender's part before it can start, so it keeps them: memory for the span's
    // parts times the senders, instead of one running sum.
    std::optional<CenteredClipOptions> centeredClip;
    // Per member, the most weight its parts may carry (a gradient round: WeightBounds, what it reported in
    // its signed progress; a state round: 1); empty: any plausible sample count.
    std::vector<double> maxWeights;
    // Per member, the most weight its parts count for in this aggregator's mean (a gradient round:
    // WeightBounds::countedAtMost, bounded by the group's median claim): a part above it is no violation,
    // it counts as the cap. Empty: as sent.
    std::vector<double> weightCaps;
    // Ranges of the vector with a floor (ValueFloor); empty: any finite value.
    std::vector<ValueFloor> floors;
    // Sealed averages (docs/protocol.md): this member's identity, which signs the seal of its span (its
    // id must be the codec's peer id). Set, every aggregator of the group must seal its span, a member
    // takes a span only when the values it received match their seal, and passes its seals on to every
    // aggregator, which compares them: the engine always sets it. nullptr: nothing is sealed (test peers
    // whose made-up ids are no keys). Every member of a group must agree; owned by the caller.
    const security::PeerIdentity* sealWith = nullptr;
    // Audited averages (docs/protocol.md; under sealing only): the aggregators, by peer id, whose span this
    // member audits. Of each it picks one part at random once the span's seal came, and asks the aggregator
    // for the inputs of that part, each signed by its sender; the span is taken only if they give the mean
    // received. A lie so proved is named among the violators. Under sealing every sender signs its parts
    // and every aggregator keeps the signed inputs of its span until its round ends, for the auditors.
    // The engine audits one span a round, chosen at random (LinkOptions::auditedSpans).
    std::vector<std::string> audited;
    // The group id of the round that shares this one's members and epoch (a gradient round's state round,
    // and the reverse; empty: none): a member's message for it says nothing about this round's plan. A
    // message for any other group at this epoch, from a member of this plan that has sent nothing fitting
    // it, is a sign that the leader gave members different groups, and counts as a misfit (plansDiffer).
    std::string companionGroup;
    // Members this member refuses from the start (peers it banned since the group formed): excluded as
    // senders and given up as aggregators at once, their spans keeping the local values. By peer id.
    std::vector<std::string> excluded;
    // Testing a run's defences only (engine::GradientAttack::Equivocate): changes the averages this
    // aggregator sends member `member` (index in the group), `count` values of one part, before they are
    // rounded and sent; with sealing, each member gets a valid seal of what it was sent. Empty for every
    // honest peer.
    std::function<void(std::size_t member, float* values, std::int64_t count)> alterReplies;
};

// A sender whose parts this aggregator counted for less weight than they carried (weightCaps).
struct CappedWeight {
    std::string peerId;
    double sent = 0.0;
    double counted = 0.0;
};

struct AllReduceResult {
    // The averaged vector: for each span the group's weighted mean, or the local values where the span's
    // aggregator failed. Empty for an auxiliary member.
    std::vector<float> values;
    std::vector<bool> spanAveraged; // per member: its span holds the group's mean
    double totalWeight = 0.0;       // weights that went into this member's own span (if it aggregates)
    std::vector<std::string> excludedSenders; // peers this aggregator dropped: silent, or breaking rules
    std::vector<std::string> violations;      // what they did, for the log
    // Peers that broke the protocol (not the merely silent), by an identity the connection authenticated:
    // what the caller may hold against them beyond this round (a ban). Pairs of peer id and offence.
    std::vector<std::pair<std::string, std::string>> violators;
    // Senders of a part heavier than the most they may put on it (AllReduceOptions::maxWeights), by peer id.
    std::vector<std::string> overweightSenders;
    // Aggregators that said they left the group before its round (PartFailure.left_group), by peer id: they
    // send nothing either.
    std::vector<std::string> leftBeforeRound;
    // Members whose messages did not fit this member's plan (by peer id, once each): a leader that gave
    // members different plans shows as most of the group misfitting (CollaborationLink looks again).
    std::vector<std::string> planMismatches;
    // Other members whose parts or averages fitted this member's plan, and none misfit it: they were given
    // the same plan.
    std::size_t planFits = 0;
    // More other members misfit this member's plan than fit it: its leader gave members different plans.
    // Silent members count neither way; a member can feign a misfit, but not outnumber those that fit.
    bool plansDiffer() const { return !planMismatches.empty() && planMismatches.size() > planFits; }
    // Upload rates (values per second) senders demonstrably achieved towards this aggregator, by peer id:
    // what caps the bandwidth they claim next time (BandwidthClaims).
    std::vector<std::pair<std::string, double>> senderRates;
    // Per member, the weight its parts counted for in this member's span (−1: none arrived, or this member
    // aggregates nothing), and the senders whose weight was capped.
    std::vector<double> countedWeights;
    std::vector<CappedWeight> cappedWeights;
    // Members whose messages were outside the replay window of this clock, with their clock's offset from
    // this one (ms, as their last such message said): excluded from the round, not violators.
    std::map<std::string, std::int64_t> clockSkewsMs;
    // Members that send parts but had not connected to this aggregator when it began streaming (the
    // connect wait ran out): late, or gone. By peer id.
    std::vector<std::string> unconnected;
    std::size_t pacedConnections = 0; // connections of this round the kernel paced
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    double seconds = 0.0;
    // What this member's audits found (AllReduceOptions::audited), one line each, for the log.
    std::vector<std::string> audits;
    // Messages for other purposes that arrived on the ROUTER meanwhile (a join request for the next epoch,
    // a state request): the caller handles them.
    std::vector<net::WireMessage> otherMessages;

    bool complete() const;
    // The overweight senders (by peer id, each once) whose span's mean this member took: it arrived before
    // their part showed the offence. A sender that puts more weight on its parts than it may weighs its own
    // span's mean the same way, so a state round that holds such a span is not taken (docs/security.md).
    // A liar that sends its heavy parts to every aggregator is seen by every member that aggregates, and
    // they decide alike whichever came first; other offences (negative moments, say) show only in some
    // spans and leave the offender's own mean to the checks every member makes alike (the floors).
    std::vector<std::string> overweightSpansTaken(const GroupSpec& spec) const;
};

// One butterfly all-reduce of a group over ZeroMQ (docs/protocol.md). Every member that holds gradients sends
// span i of its vector, part by part, to member i through a DEALER it opens to i's ROUTER; aggregator i
// adds each part into a weighted sum as it arrives and, once every sender's part is in (or the silent
// ones are excluded), sends the mean back to every member through its ROUTER. Aggregators keep for
// their own span exactly the rounded values they send (TensorEncoding::roundTrip), so every member ends
// with bit-identical averages. Each received part is checked against the group (sender is a member and
// the connection's owner, span, part index, offset, count, encoding) before it is used.
//
// Weights: each part carries its sender's weight, and an aggregator uses that one (the same for every part
// of a sender, a plausible sample count). A member declares its weight when it joins the group but keeps
// training while the group forms, so the weight it sends is its sample count at hand-over: this member's
// own is spec.members[me].weight, which the caller sets just before the round.
//
// Runs on the calling thread, which owns the ROUTER for the round's duration.
class AllReduceRound {
public:
    // router: this member's bound ROUTER (nullptr for a client). Throws std::invalid_argument when the
    // codec's peer is not a member, a client is given a span, or the spec is inconsistent.
    AllReduceRound(GroupSpec spec, const net::MessageCodec& codec, const net::SocketFactory& sockets,
                   zmq::socket_t* router, AllReduceOptions options = {});

    ~AllReduceRound();
    AllReduceRound(const AllReduceRound&) = delete;
    AllReduceRound& operator=(const AllReduceRound&) = delete;

    // The round's phases, each change reported to onTransition's log.
    enum class Phase {
        Idle,       // not started
        Connecting, // telling the aggregators this member's connections are up, waiting for the senders'
        Streaming,  // parts going out, spans aggregated, averages coming back
        Done,       // complete, or ended at the deadline: takeResult()
    };
    static const char* nameOf(Phase phase);
    void onTransition(std::function<void(const std::string&)> log) { log_ = std::move(log); }

    // local: this member's vector (spec.vectorSize values), empty for an auxiliary. early: messages for
    // this group that reached the ROUTER before the round began. The whole round in one blocking call.
    AllReduceResult run(std::vector<float> local, std::vector<net::WireMessage> early = {});

    // The same round as a step of the caller's event loop (docs/collaboration.md, "The collaboration
    // thread"): start() once, then step() whenever pollItems() has something or wakeAt() has come, until
    // phase() is Done. While it runs it owns the ROUTER; other messages wait in takeOtherMessages().
    void start(std::vector<float> local, std::vector<net::WireMessage> early = {});
    void step();
    std::vector<zmq::pollitem_t> pollItems();
    std::chrono::steady_clock::time_point wakeAt() const;
    Phase phase() const;
    // Ends the round now, as its deadline would: spans not averaged keep the local values.
    void finishNow(const std::string& why);
    std::vector<net::WireMessage> takeOtherMessages();
    // Once Done. Throws std::logic_error before.
    AllReduceResult takeResult();
    // Once Done, before takeResult(): leaves its DEALERs to the aggregators whose span came back averaged in
    // `pool`, for the next matchmaking that asks one of them to lead (DealerPool), and closes the others.
    // Throws std::logic_error before Done.
    void keepDealersIn(DealerPool& pool);

    int memberIndex() const { return me_; }

    // Whether `envelope` is one that a member sends to an aggregator's round of group `groupId` (a part, or
    // the notice that its connection is up): what the caller keeps for that round when it comes first.
    static bool isRoundMessage(const wire::Envelope& envelope, const std::string& groupId);
    // The same, for any group: its epoch, nullopt for any other message.
    static std::optional<std::uint64_t> roundEpochOf(const wire::Envelope& envelope);

private:
    class State;

    GroupSpec spec_;
    const net::MessageCodec& codec_;
    const net::SocketFactory& sockets_;
    zmq::socket_t* router_;
    AllReduceOptions options_;
    int me_ = -1;
    std::function<void(const std::string&)> log_;
    std::unique_ptr<State> state_;
};

} // namespace sahaj::collab
