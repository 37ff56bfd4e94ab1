#include "core/collab/AllReduceRound.h"
#include "core/collab/DealerPool.h"

#include "core/collab/PartAudit.h"
#include "core/collab/PartContainer.h"
#include "core/collab/PartHeader.h"
#include "core/collab/PartSignatures.h"
#include "core/collab/PartitionPlan.h"
#include "core/collab/PeerProgressRules.h"
#include "core/collab/RoundStash.h"
#include "core/collab/SealLedger.h"
#include "core/collab/SpanReducer.h"
#include "core/collab/SpanSeals.h"
#include "core/collab/TensorEncoding.h"
#include "core/net/ClockSkew.h"
#include "core/net/ConnectionPacer.h"
#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"
#include "core/net/TokenBucket.h"
#include "core/security/Sha256.h"

#include <QByteArray>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>

namespace sahaj::collab {

namespace allreduce_detail {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How often the round looks for its new connections to pace them.
constexpr auto kPacingRefresh = 25ms;

// Frames waiting for their socket to take them (its queue is full, or the upload cap says wait).
struct Outgoing {
    std::vector<zmq::message_t> frames;
    std::size_t member = 0; // ROUTER replies: to the member's connection (RoundState::routes_)
};

std::uint64_t sizeOf(const std::vector<zmq::message_t>& frames) {
    std::uint64_t bytes = 0;
    for (const zmq::message_t& frame : frames)
        bytes += frame.size();
    return bytes;
}

// The group and epoch of a message that a member sends to an aggregator's round; nullopt for any other.
struct RoundOf {
    const std::string& groupId;
    std::uint64_t epoch;
};

std::optional<RoundOf> roundOf(const wire::Envelope& envelope) {
    if (envelope.has_tensor_part())
        return RoundOf{envelope.tensor_part().group_id(), envelope.tensor_part().epoch()};
    if (envelope.has_member_connected())
        return RoundOf{envelope.member_connected().group_id(), envelope.member_connected().epoch()};
    return std::nullopt;
}

// A member that sends parts must hold the group's whole vector.
std::vector<float> checkedVector(const GroupSpec& spec, int me, std::vector<float> local) {
    if (spec.members[static_cast<std::size_t>(me)].sends() &&
        static_cast<std::int64_t>(local.size()) != spec.vectorSize)
        throw std::invalid_argument("the local vector has " + std::to_string(local.size()) +
                                    " values, the group averages " + std::to_string(spec.vectorSize));
    return local;
}

} // namespace allreduce_detail

using namespace allreduce_detail;

bool AllReduceRound::isRoundMessage(const wire::Envelope& envelope, const std::string& groupId) {
    const std::optional<RoundOf> round = roundOf(envelope);
    return round && round->groupId == groupId;
}

std::optional<std::uint64_t> AllReduceRound::roundEpochOf(const wire::Envelope& envelope) {
    const std::optional<RoundOf> round = roundOf(envelope);
    return round ? std::optional<std::uint64_t>(round->epoch) : std::nullopt;
}

bool AllReduceResult::complete() const {
    return std::all_of(spanAveraged.begin(), spanAveraged.end(), [](bool averaged) { return averaged; });
}

std::vector<std::string> AllReduceResult::overweightSpansTaken(const GroupSpec& spec) const {
    std::vector<std::string> taken;
    for (const std::string& peerId : overweightSenders) {
        const int member = spec.indexOf(peerId);
        if (member >= 0 && static_cast<std::size_t>(member) < spanAveraged.size() &&
            spanAveraged[static_cast<std::size_t>(member)] &&
            std::find(taken.begin(), taken.end(), peerId) == taken.end())
            taken.push_back(peerId);
    }
    return taken;
}

AllReduceRound::AllReduceRound(GroupSpec spec, const net::MessageCodec& codec,
                               const net::SocketFactory& sockets, zmq::socket_t* router,
                               AllReduceOptions options)
    : spec_(std::move(spec)), codec_(codec), sockets_(sockets), router_(router), options_(options) {
    me_ = spec_.indexOf(codec_.peerId());
    if (me_ < 0)
        throw std::invalid_argument("this peer is not a member of the group");
    if (spec_.spanCounts.size() != spec_.members.size())
        throw std::invalid_argument("the group needs one span count per member");
    for (std::size_t i = 0; i < spec_.members.size(); ++i)
        if (spec_.members[i].role == wire::ROLE_CLIENT && spec_.spanCounts[i] != 0)
            throw std::invalid_argument("a client member cannot aggregate a span");
    if (spec_.spanCounts[static_cast<std::size_t>(me_)] > 0 && !router_)
        throw std::invalid_argument("an aggregating member needs its ROUTER");
    if (options_.centeredClip)
        CenteredClip::validate(*options_.centeredClip);
}

// The round's state machine (AllReduceRound::Phase); kept out of the header so that AllReduceRound stays
// a small interface. The member's parts and the averages coming back are its PartContainer's, the
// aggregator's span its SpanReducer's; this class moves them over the sockets and checks what arrives.
class AllReduceRound::State {
public:
    State(const GroupSpec& spec, int me, const net::MessageCodec& codec, const net::SocketFactory& sockets,
          zmq::socket_t* router, const AllReduceOptions& options, std::vector<float> local)
        : spec_(spec), me_(me), codec_(codec), router_(router), options_(options), secure_(sockets.secure()),
          plan_(spec.spanCounts, spec.vectorSize, spec.partElements),
          parts_(plan_, spec.encoding, static_cast<std::size_t>(me),
                 checkedVector(spec, me, std::move(local))),
          upload_(options.uploadBytesPerSecond, 256.0 * 1024),
          download_(options.downloadBytesPerSecond, 256.0 * 1024) {
        const std::size_t members = spec_.members.size();
        const Clock::time_point now = Clock::now();
        start_ = now;
        result_.spanAveraged.assign(members, false);
        heardFrom_.assign(members, now);
        fitted_.assign(members, false);
        misfit_.assign(members, false);
        toldOfOtherGroup_.assign(members, false);
        arrivals_.resize(members);
        confirmed_.assign(members, false);
        connectedAt_.assign(members, std::nullopt);
        unreachable_.assign(members, false);
        routes_.assign(members, std::string());
        lastReplyAt_.assign(members, now);
        weights_.resize(members);
        ownWeight_ = self().weight;
        // Empty spans need no averaging; an auxiliary holds no vector, so only its own span concerns it.
        for (std::size_t a = 0; a < members; ++a)
            if (spec_.spanCounts[a] == 0 || (!self().sends() && static_cast<int>(a) != me_))
                result_.spanAveraged[a] = true;

        const bool sender = self().sends();
        // A vector with infinities or NaN (a step that overflowed) would poison every span, and others would
        // exclude this member for it: it takes part with zeros and weight 0 instead, and still receives the
        // group's averages.
        const std::span<float> values = parts_.values();
        if (sender && !std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); })) {
            std::fill(values.begin(), values.end(), 0.0f);
            ownWeight_ = 0.0;
            result_.violations.push_back(
                "this member's vector held non-finite values: it sent zeros with weight 0");
        }
        // As an aggregator: its span's parts (SpanReducer), which this member's own values count in.
        std::vector<std::int64_t> partSizes;
        for (const ElementRange& part : plan_.parts(me_))
            partSizes.push_back(part.size);
        std::vector<bool> senders;
        for (const GroupMember& member : spec_.members)
            senders.push_back(member.sends());
        const ElementRange span = plan_.span(me_);
        reducer_.emplace(std::move(partSizes), std::move(senders), static_cast<std::size_t>(me_),
                         sender && span.size > 0 ? parts_.values(span) : std::span<const float>(),
                         options_.centeredClip, spec_.encoding);
        fixWeight(static_cast<std::size_t>(me_), ownWeight_);
        // Audited averages: this aggregator keeps its span's signed inputs, its own values among them (the
        // vector's span takes the means once they are done), until the round ends.
        if (sealing()) {
            kept_.resize(reducer_->partCount()); // move-only inputs: no copies of an empty row
            for (std::vector<std::optional<KeptInput>>& part : kept_)
                part.resize(members);
            if (sender && span.size > 0) {
                const std::span<const float> own = parts_.values(span);
                ownInput_.assign(own.begin(), own.end());
            }
            for (const std::string& peerId : options_.audited)
                if (const int a = spec_.indexOf(peerId);
                    a >= 0 && std::count(parts_.aggregators().begin(), parts_.aggregators().end(),
                                         static_cast<std::size_t>(a)))
                    audited_.insert(static_cast<std::size_t>(a));
        }
        for (const std::string& peerId : options_.excluded)
            if (const int member = spec_.indexOf(peerId); member >= 0 && member != me_) {
                exclude(member,
                        "member " + net::LogText::shortHex(peerId) + " is banned: left out of the round");
                parts_.fail(static_cast<std::size_t>(member));
            }
        // As a member: one DEALER to every other aggregator, carrying this member's parts of its span.
        for (const std::size_t a : parts_.aggregators())
            dealers_.emplace(a, sockets.connectDealer(spec_.members[a].endpoint, spec_.members[a].curveKey));
        pacer_.emplace(pacingRate(), router_ ? net::SocketFactory::boundEndpoint(*router_) : std::string(),
                       dealerEndpoints());
        sealsFrom_.assign(members, false);
    }

    void start(std::vector<net::WireMessage> early) {
        deadline_ = start_ + options_.deadline;
        nextPacing_ = start_;
        enter(Phase::Connecting, std::to_string(spec_.members.size()) + " members");
        for (net::WireMessage& message : early)
            onRouterMessage(std::move(message));
    }

    // Reads what arrived (within the download cap), then does what is due: pacing, timeouts, finished
    // parts, the connection notices, the sends the upload cap allows; ends the round when it is complete
    // or its deadline passed. Never waits.
    void step() {
        if (phase_ == Phase::Done)
            return;
        if (Clock::now() >= downloadAllowedAt_) {
            if (router_)
                drainRouter();
            for (const auto& entry : dealers_)
                drainDealer(entry.first);
        }
        const Clock::time_point now = Clock::now();
        // Connections appear as the members' DEALERs reach the ROUTER and this member's reach theirs.
        if (now >= nextPacing_) {
            pacer_->refresh();
            nextPacing_ = now + kPacingRefresh;
        }
        applyTimeouts(now);
        completeParts();
        greet(now);
        flush(now);
        if (finished(now))
            finish("complete");
        else if (now >= deadline_)
            finish("its deadline passed; what was not averaged keeps the local values");
    }

    // When step() has something to do even if nothing arrives: a timeout to check, a send the upload cap
    // allows, the end of the connect wait, a read the download cap allows.
    Clock::time_point wakeAt() const {
        const Clock::time_point now = Clock::now();
        Clock::time_point wake = std::min(deadline_, nextWake(now));
        if (now < downloadAllowedAt_)
            wake = std::min(wake, downloadAllowedAt_);
        return wake;
    }

    AllReduceResult run(std::vector<net::WireMessage> early) {
        start(std::move(early));
        for (;;) {
            step();
            if (phase_ == Phase::Done)
                return take();
            poll(wakeAt());
        }
    }

    Phase phase() const { return phase_; }

    void finish(const std::string& why) {
        sendConfirmations(); // a last try for any a full queue held back
        passSealsOn(true);
        noteUnconfirmed();
        // Each span's mean went into the vector when the whole span was in; whatever was not averaged in time
        // keeps the local values.
        result_.values = parts_.takeValues();
        result_.countedWeights = reducer_->weights();
        for (std::size_t m = 0; m < misfit_.size(); ++m)
            if (static_cast<int>(m) == me_)
                continue;
            else if (misfit_[m])
                result_.planMismatches.push_back(spec_.members[m].peerId);
            else if (fitted_[m])
                ++result_.planFits;
        measureSenders();
        pacer_->refresh(); // the connections made since the last look, for the count
        result_.pacedConnections = pacer_->pacedCount();
        result_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        enter(Phase::Done,
              why + " after " + std::to_string(static_cast<long long>(result_.seconds * 1000)) + " ms");
    }

    std::vector<net::WireMessage> takeOtherMessages() { return std::exchange(result_.otherMessages, {}); }

    AllReduceResult take() { return std::move(result_); }

    // Only the connections to aggregators whose span came back averaged: one that failed may still hold
    // this member's parts in its queue, which a kept connection would go on sending.
    void keepDealersIn(DealerPool& pool) {
        for (auto& [aggregator, socket] : dealers_)
            if (aggregator < result_.spanAveraged.size() && result_.spanAveraged[aggregator])
                pool.keep(spec_.members[aggregator].endpoint, spec_.members[aggregator].curveKey,
                          std::move(socket));
        dealers_.clear();
    }

    void onTransition(std::function<void(const std::string&)> log) { log_ = std::move(log); }

    // The sockets a poll should wait on, with what each waits for (the same as poll() below).
    std::vector<zmq::pollitem_t> pollItems() {
        std::vector<zmq::pollitem_t> items;
        pollItems(items, nullptr);
        return items;
    }

private:
    const GroupMember& self() const { return spec_.members[static_cast<std::size_t>(me_)]; }
    bool sealing() const { return options_.sealWith != nullptr; }

    // Per connection, within the user's cap.
    double pacingRate() const {
        double rate = options_.pacingBytesPerSecond;
        if (options_.uploadBytesPerSecond > 0.0 && rate > 0.0)
            rate = std::min(rate, options_.uploadBytesPerSecond);
        return rate;
    }

    std::vector<std::string> dealerEndpoints() const {
        std::vector<std::string> endpoints;
        for (const auto& [aggregator, socket] : dealers_)
            endpoints.push_back(spec_.members[aggregator].endpoint);
        return endpoints;
    }

    // Empty when every value at `range` is at or above its floors, else which is not ("with a second
    // moment of ...").
    std::string belowFloor(const ElementRange& range, const float* values) const {
        for (const ValueFloor& floor : options_.floors) {
            const std::int64_t first = std::max(floor.range.offset, range.offset);
            const std::int64_t last = std::min(floor.range.end(), range.end());
            for (std::int64_t i = first; i < last; ++i) {
                const float value = values[i - range.offset];
                if (value < floor.lowest)
                    return "with " + floor.what + " of " + std::to_string(value) + " (below " +
                           std::to_string(floor.lowest) + ") at element " + std::to_string(i);
            }
        }
        return {};
    }

    // Fixes a member's weight as sent (all its parts must carry the same) and the weight its parts count
    // for: the sent one, within the cap (AllReduceOptions::weightCaps; a capped sender is reported).
    void fixWeight(std::size_t member, double sent) {
        weights_[member] = sent;
        double counted = sent;
        if (member < options_.weightCaps.size() && sent > options_.weightCaps[member]) {
            counted = options_.weightCaps[member];
            result_.cappedWeights.push_back({spec_.members[member].peerId, sent, counted});
        }
        reducer_->setWeight(member, counted);
    }

    void exclude(int member, const std::string& why) {
        if (!reducer_->exclude(static_cast<std::size_t>(member)))
            return;
        result_.excludedSenders.push_back(spec_.members[static_cast<std::size_t>(member)].peerId);
        result_.violations.push_back(why);
    }

    void applyTimeouts(Clock::time_point now) {
        for (std::size_t m = 0; m < spec_.members.size(); ++m) {
            const int member = static_cast<int>(m);
            if (member != me_ && spec_.members[m].sends() && !reducer_->excluded(m) && reducer_->owes(m) &&
                now - heardFrom_[m] > options_.senderTimeout)
                exclude(member, "no part for " + std::to_string(options_.senderTimeout.count()) + " ms");
            if (member != me_ && dealers_.count(m) && !result_.spanAveraged[m] && !parts_.failed(m) &&
                now - heardFrom_[m] > options_.aggregatorTimeout) {
                if (audits_.count(m))
                    endAudit(m,
                             "audit of aggregator " + net::LogText::shortHex(spec_.members[m].peerId) +
                                 "'s span: it showed no input for " +
                                 std::to_string(options_.aggregatorTimeout.count()) +
                                 " ms; the span keeps the local values",
                             false);
                parts_.fail(m);
            }
        }
    }

    // A part is complete when every sender that is not excluded has contributed; the span, when every part
    // is: its means go into the vector.
    void completeParts() {
        for (const std::size_t p : reducer_->completeParts()) {
            finishPart(static_cast<std::int64_t>(p));
            if (ownSpanFailed_)
                return;
        }
        if (reducer_->partCount() > 0 && !ownSpanFailed_ &&
            !result_.spanAveraged[static_cast<std::size_t>(me_)] && reducer_->allDone()) {
            result_.spanAveraged[static_cast<std::size_t>(me_)] = true;
            sealOwnSpan();
            for (std::size_t p = 0; p < reducer_->partCount(); ++p) {
                const std::vector<float> mean = reducer_->takeMean(p);
                if (parts_.sends())
                    std::copy(mean.begin(), mean.end(),
                              parts_.values().begin() + plan_.part(me_, static_cast<std::int64_t>(p)).offset);
            }
        }
    }

    void finishPart(std::int64_t p) {
        const SpanReducer::Mean mean = reducer_->finish(static_cast<std::size_t>(p));
        const ElementRange range = plan_.part(me_, p);
        // Finite parts can still sum past float's range (huge values times large weights): the span then
        // fails for everyone, said explicitly, rather than spreading infinities.
        if (!mean.finite)
            return failOwnSpan("the mean of part " + std::to_string(p) + " overflowed");
        result_.totalWeight = mean.weight;

        wire::Envelope envelope;
        wire::AveragedPart* reply = envelope.mutable_averaged_part();
        fillPartHeader(*reply, spec_, static_cast<std::size_t>(me_), p, range);
        reply->set_total_weight(mean.weight);
        reply->set_contributors(mean.contributors);
        if (options_.alterReplies) {
            for (std::size_t m : repliedMembers()) {
                const std::vector<float> values = alteredFor(m, p);
                const zmq::message_t data = TensorEncoding::encode(values.data(), range.size, spec_.encoding);
                replyTo(m, envelope, &data);
            }
            return;
        }
        const zmq::message_t data = TensorEncoding::encode(mean.values.data(), range.size, spec_.encoding);
        replyToEverySender(envelope, &data);
    }

    // Sealed averages: the seal of this member's span, over the means exactly as sent, goes to every member
    // after the span's last part (replies leave in order).
    void sealOwnSpan() {
        if (!sealing())
            return;
        const auto sealOf = [&](const std::function<void(security::Sha256&)>& addSpan) {
            security::Sha256 hash;
            addSpan(hash);
            wire::Envelope envelope;
            *envelope.mutable_span_seal() =
                SpanSeals::make(codec_.runId(), spec_, static_cast<std::uint32_t>(me_), hash.result(),
                                reducer_->weights(), *options_.sealWith);
            return envelope;
        };
        // A test of the defences seals as its own what it would have sent itself.
        const wire::Envelope own = sealOf([&](security::Sha256& hash) {
            for (std::size_t p = 0; p < reducer_->partCount(); ++p) {
                if (!options_.alterReplies) {
                    SpanSeals::addValues(hash, reducer_->mean(p).data(), reducer_->mean(p).size());
                    continue;
                }
                const std::vector<float> values =
                    alteredFor(static_cast<std::size_t>(me_), static_cast<std::int64_t>(p));
                SpanSeals::addValues(hash, values.data(), values.size());
            }
        });
        holdSeal(own.span_seal());
        if (!options_.alterReplies)
            return replyToEverySender(own, nullptr);
        // A test of the defences: each member gets a valid seal of what it was sent.
        for (std::size_t m : repliedMembers())
            replyTo(m, sealOf([&](security::Sha256& hash) {
                        for (std::size_t p = 0; p < reducer_->partCount(); ++p) {
                            const std::vector<float> values = alteredFor(m, static_cast<std::int64_t>(p));
                            SpanSeals::addValues(hash, values.data(), values.size());
                        }
                    }),
                    nullptr);
    }

    // Gives up this member's span: every member keeps its local values for it (PartFailure).
    void failOwnSpan(const std::string& why) {
        ownSpanFailed_ = true;
        result_.violations.push_back(why);
        reducer_->dropAll();
        wire::Envelope envelope;
        wire::PartFailure* failure = envelope.mutable_part_failure();
        failure->set_group_id(spec_.groupId);
        failure->set_epoch(spec_.epoch);
        failure->set_span(static_cast<std::uint32_t>(me_));
        failure->set_reason(why);
        replyToEverySender(envelope, nullptr);
    }

    // Queues `envelope` (with a copy of `data`, if any) for every other member that holds gradients.
    void replyToEverySender(const wire::Envelope& envelope, const zmq::message_t* data) {
        for (std::size_t m : repliedMembers())
            replyTo(m, envelope, data);
    }

    void replyTo(std::size_t member, const wire::Envelope& envelope, const zmq::message_t* data) {
        std::vector<zmq::message_t> frames;
        if (data)
            frames.emplace_back(data->data(), data->size());
        replies_.push_back({codec_.encode(envelope, std::move(frames)), member});
    }

    // The members an aggregator replies to: every other member that holds gradients.
    std::vector<std::size_t> repliedMembers() const {
        std::vector<std::size_t> members;
        for (std::size_t m = 0; m < spec_.members.size(); ++m)
            if (static_cast<int>(m) != me_ && spec_.members[m].sends())
                members.push_back(m);
        return members;
    }

    // What member m is sent of part p (AllReduceOptions::alterReplies, a test of the defences): the mean
    // as altered for it, rounded as the wire rounds it.
    std::vector<float> alteredFor(std::size_t member, std::int64_t p) const {
        const std::span<const float> mean = reducer_->mean(static_cast<std::size_t>(p));
        std::vector<float> values(mean.begin(), mean.end());
        options_.alterReplies(member, values.data(), static_cast<std::int64_t>(values.size()));
        TensorEncoding::roundTrip(values.data(), static_cast<std::int64_t>(values.size()), spec_.encoding);
        return values;
    }

    std::vector<zmq::message_t> partFrames(std::size_t aggregator, std::int64_t p) const {
        const ElementRange range = plan_.part(static_cast<std::int64_t>(aggregator), p);
        wire::Envelope envelope;
        wire::TensorPart* part = envelope.mutable_tensor_part();
        fillPartHeader(*part, spec_, aggregator, p, range);
        part->set_weight(ownWeight_);
        std::vector<zmq::message_t> data;
        data.push_back(TensorEncoding::encode(parts_.values(range).data(), range.size, spec_.encoding));
        if (sealing())
            PartSignatures::sign(codec_.runId(), *options_.sealWith, *part, data.front());
        return codec_.encode(std::move(envelope), std::move(data));
    }

    // Sends what the sockets and the upload cap allow now.
    void flush(Clock::time_point now) {
        if (now < uploadAllowedAt_)
            return;
        for (const std::size_t aggregator : parts_.aggregators()) {
            std::optional<std::int64_t> next;
            while (streaming_ && now >= uploadAllowedAt_ && (next = parts_.nextPart(aggregator))) {
                std::vector<zmq::message_t>& frames = staged_[aggregator];
                if (frames.empty())
                    frames = partFrames(aggregator, *next);
                const std::uint64_t bytes = sizeOf(frames);
                if (!net::MessageCodec::send(dealers_.at(aggregator), frames, nullptr, true))
                    break; // the connection's queue is full: the frames wait for the next turn
                parts_.sent(aggregator);
                result_.bytesSent += bytes;
                uploadAllowedAt_ = now + upload_.reserve(bytes, now);
            }
        }
        // One member whose queue is full must not hold up the others' replies: its replies wait (in order)
        // while the rest go out.
        std::set<std::size_t> blocked;
        for (auto reply = replies_.begin(); reply != replies_.end() && now >= uploadAllowedAt_;) {
            if (blocked.count(reply->member)) {
                ++reply;
                continue;
            }
            const std::uint64_t bytes = sizeOf(reply->frames);
            const std::string& routeId = routes_[reply->member];
            const zmq::message_t route(routeId.data(), routeId.size());
            // A member that never reached this aggregator has no connection here to answer on.
            const auto sent = routeId.empty()
                                  ? net::MessageCodec::SendResult::Unreachable
                                  : net::MessageCodec::trySend(*router_, reply->frames, &route, true);
            if (sent == net::MessageCodec::SendResult::WouldBlock) {
                blocked.insert(reply->member);
                ++reply;
                continue;
            }
            if (sent == net::MessageCodec::SendResult::Sent) {
                result_.bytesSent += bytes;
                uploadAllowedAt_ = now + upload_.reserve(bytes, now);
                lastReplyAt_[reply->member] = now;
            } else {
                unreachable_[reply->member] = true;
            }
            // Sent, or the member is gone (it cannot be told; the others must not wait).
            reply = replies_.erase(reply);
        }
        sendConfirmations();
        sendAuditRequests();
        passSealsOn(false);
        // Only full queues left: poll() then waits for the timer instead of spinning on the ROUTER, which
        // reports itself writable while any member's queue has room.
        repliesBlocked_ = !replies_.empty() && now >= uploadAllowedAt_;
    }

    bool finished(Clock::time_point now) const {
        const bool aggregated = reducer_->partCount() == 0 || ownSpanFailed_ ||
                                result_.spanAveraged[static_cast<std::size_t>(me_)];
        if (!aggregated || !replies_.empty() || awaitsConfirmation(now))
            return false;
        return !parts_.outstanding();
    }

    // Replies handed to the ROUTER are not yet delivered: until a member confirms the span (SpanReceived)
    // they may sit in this process's queues, which a peer leaving right after its round would drop. So an
    // aggregator's round lasts until every member it replied to confirmed, except members whose connection
    // is gone (a reply found it unreachable) and excluded senders (silent, most likely dead).
    // Under sealing it also waits for the member's seals (RoundSeals), which it sends once its own spans
    // are in: each aggregator sees every member's seals, and so any two that differ.
    bool owesConfirmation(std::size_t m) const {
        return static_cast<int>(m) != me_ && spec_.members[m].sends() &&
               (!confirmed_[m] || (sealing() && !sealsFrom_[m])) && !unreachable_[m] &&
               !reducer_->excluded(m) && !reducer_->partCount() == 0 && !ownSpanFailed_;
    }

    // A member silent for the sender timeout since the last reply to it is not waited for any longer (it
    // gives this aggregator up after its own, longer, aggregator timeout).
    bool awaitsConfirmation(Clock::time_point now) const {
        for (std::size_t m = 0; m < spec_.members.size(); ++m)
            if (owesConfirmation(m) &&
                now - std::max(lastReplyAt_[m], heardFrom_[m]) <= options_.senderTimeout)
                return true;
        return false;
    }

    void noteUnconfirmed() {
        for (std::size_t m = 0; m < spec_.members.size(); ++m)
            if (owesConfirmation(m))
                result_.violations.push_back("member " + net::LogText::shortHex(spec_.members[m].peerId) +
                                             (confirmed_[m]
                                                  ? " did not pass its seals on"
                                                  : " did not confirm that this aggregator's span arrived"));
    }

    // Sends a message without data on this member's DEALER to `aggregator`; false when the socket does not
    // take it now (its queue is full, or, with ZMQ_IMMEDIATE, the connection is not up yet).
    bool tell(std::size_t aggregator, wire::Envelope envelope) {
        std::vector<zmq::message_t> frames = codec_.encode(std::move(envelope));
        return net::MessageCodec::send(dealers_.at(aggregator), frames, nullptr, true);
    }

    // Under sealing, once every span this member awaits is in or given up (and its parts are out), passes
    // the seals it checked on to every aggregator (RoundSeals); one whose queue is full on a later turn,
    // and at the round's end a last try.
    void passSealsOn(bool last) {
        if (!sealing() || dealers_.empty())
            return;
        if (!sealsPassed_) {
            if (parts_.outstanding() && !last)
                return;
            sealsPassed_ = true;
            for (const auto& [aggregator, socket] : dealers_)
                sealsDue_.insert(aggregator);
        }
        if (sealsDue_.empty())
            return;
        wire::Envelope envelope;
        wire::RoundSeals* seals = envelope.mutable_round_seals();
        seals->set_group_id(spec_.groupId);
        seals->set_epoch(spec_.epoch);
        for (wire::SpanSeal& seal : seals_.all())
            *seals->add_seals() = std::move(seal);
        for (auto it = sealsDue_.begin(); it != sealsDue_.end();)
            it = tell(*it, envelope) ? sealsDue_.erase(it) : std::next(it);
    }

    // Tells each aggregator whose whole span arrived that it did (SpanReceived); one whose queue is full is
    // told on a later turn.
    void sendConfirmations() {
        for (auto it = confirmationsDue_.begin(); it != confirmationsDue_.end();) {
            wire::Envelope envelope;
            wire::SpanReceived* received = envelope.mutable_span_received();
            received->set_group_id(spec_.groupId);
            received->set_epoch(spec_.epoch);
            received->set_span(static_cast<std::uint32_t>(*it));
            it = tell(*it, std::move(envelope)) ? confirmationsDue_.erase(it) : std::next(it);
        }
    }

    // Before streaming: tells each aggregator once this member's connection to it is up (MemberConnected),
    // and starts streaming when every connection of this member is up and every member that sends has
    // connected to this aggregator, or when the connect wait is over. Why wait: the replies of every
    // handshake with this member leave through its uplink, and once its parts fill the uplink's queue they
    // wait behind them (a tenth of a second and more per exchange behind a shaped link): the aggregators
    // that members reach last start late, and their averages are the round's last.
    void greet(Clock::time_point now) {
        if (streaming_)
            return;
        for (const auto& [aggregator, socket] : dealers_) {
            if (greeted_.count(aggregator))
                continue;
            wire::Envelope envelope;
            envelope.mutable_member_connected()->set_group_id(spec_.groupId);
            envelope.mutable_member_connected()->set_epoch(spec_.epoch);
            if (tell(aggregator, std::move(envelope)))
                greeted_.insert(aggregator);
        }
        const bool waitOver = now - start_ >= options_.connectWait;
        if (greeted_.size() < dealers_.size() && !waitOver)
            return;
        for (std::size_t m = 0; m < spec_.members.size(); ++m) {
            if (!owesConnection(m))
                continue;
            if (!waitOver)
                return;
            result_.unconnected.push_back(spec_.members[m].peerId);
        }
        streaming_ = true;
        enter(Phase::Streaming, result_.unconnected.empty() ? std::string("every connection is up")
                                                            : "the connect wait is over; " +
                                                                  std::to_string(result_.unconnected.size()) +
                                                                  " member(s) not connected");
    }

    // The one transition function: every phase change of this round goes through here and is said.
    void enter(Phase next, const std::string& why) {
        const Phase was = std::exchange(phase_, next);
        if (log_)
            log_("round " + std::to_string(spec_.epoch) + " " + net::LogText::shortHex(spec_.groupId) + ": " +
                 nameOf(was) + " -> " + nameOf(next) + ": " + why);
    }

    // As an aggregator: whether member m sends parts to this member and has not connected to it yet.
    bool owesConnection(std::size_t m) const {
        return static_cast<int>(m) != me_ && spec_.members[m].sends() && !reducer_->partCount() == 0 &&
               !connectedAt_[m];
    }

    Clock::time_point nextWake(Clock::time_point now) const {
        Clock::time_point wake = now + 100ms; // timeouts are checked at least this often
        if (uploadAllowedAt_ > now)
            wake = std::min(wake, uploadAllowedAt_);
        if (!streaming_)
            wake = std::min(wake, std::max(now, start_ + options_.connectWait));
        return wake;
    }

    // owners: -1 for the router; otherwise the aggregator a DEALER leads to (nullptr: not wanted).
    void pollItems(std::vector<zmq::pollitem_t>& items, std::vector<int>* owners) {
        const Clock::time_point now = Clock::now();
        const bool mayRead = now >= downloadAllowedAt_;
        const bool wantsToSend = now >= uploadAllowedAt_;
        if (router_) {
            short events = mayRead ? ZMQ_POLLIN : 0;
            if (!replies_.empty() && wantsToSend && !repliesBlocked_)
                events |= ZMQ_POLLOUT;
            items.push_back({router_->handle(), 0, events, 0});
            if (owners)
                owners->push_back(-1);
        }
        for (auto& [aggregator, socket] : dealers_) {
            short events = mayRead ? ZMQ_POLLIN : 0;
            // Before streaming, only the connection notice waits for the socket (it is up once writable).
            if (streaming_ ? parts_.nextPart(aggregator) && wantsToSend : !greeted_.count(aggregator))
                events |= ZMQ_POLLOUT;
            items.push_back({socket.handle(), 0, events, 0});
            if (owners)
                owners->push_back(static_cast<int>(aggregator));
        }
    }

    void poll(Clock::time_point until) {
        const Clock::time_point now = Clock::now();
        std::vector<zmq::pollitem_t> items;
        std::vector<int> owners;
        pollItems(items, &owners);
        const bool mayRead = now >= downloadAllowedAt_;
        Clock::time_point limit = until;
        if (!mayRead)
            limit = std::min(limit, downloadAllowedAt_);
        // Rounded up: a wait cut short would spin until the token bucket allows the next send.
        const auto timeout = std::max(std::chrono::ceil<std::chrono::milliseconds>(limit - now), 0ms);
        zmq::poll(items.data(), items.size(), timeout);
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (!(items[i].revents & ZMQ_POLLIN))
                continue;
            if (owners[i] < 0)
                drainRouter();
            else
                drainDealer(static_cast<std::size_t>(owners[i]));
        }
    }

    void noteDownload(std::uint64_t bytes) {
        result_.bytesReceived += bytes;
        const Clock::time_point now = Clock::now();
        downloadAllowedAt_ = now + download_.reserve(bytes, now);
    }

    void drainRouter() {
        for (int budget = 64; budget > 0 && Clock::now() >= downloadAllowedAt_; --budget) {
            zmq::message_t route;
            std::optional<std::vector<zmq::message_t>> frames;
            try {
                frames = net::MessageCodec::receive(*router_, 0ms, &route);
            } catch (const net::ProtocolViolation& e) {
                // Too many frames: none of them came back to say whose they were.
                blame(std::string(), false, e.what());
                continue;
            }
            if (!frames)
                return;
            noteDownload(sizeOf(*frames));
            // Under CURVE the ZAP handler vouches for the peer behind the connection; without it the
            // envelope's sender is the peer's own claim, as every id is in such a run.
            const std::string user = net::SocketFactory::authenticatedUser(frames->front());
            const std::string who = user.empty()
                                        ? net::MessageCodec::claimedSender(frames->front())
                                        : QByteArray::fromHex(QByteArray::fromStdString(user)).toStdString();
            try {
                net::WireMessage message = codec_.decode(std::move(*frames));
                message.route = std::move(route);
                onRouterMessage(std::move(message));
            } catch (const net::ClockSkew& e) {
                // Excluded from this round (its parts cannot be told from replays), never banned: an honest
                // volunteer's clock may be off, and so may this one's.
                blame(who, false, e.what());
                if (spec_.indexOf(who) >= 0)
                    result_.clockSkewsMs[who] = e.skewMs();
            } catch (const net::ProtocolViolation& e) {
                blame(who, !user.empty() || !secure_, e.what());
            }
        }
    }

    // `authenticated`: the peer id is known to be the offender's (the ZAP handler's, or any id in a run
    // without CURVE), so the offence may be held against it beyond this round (AllReduceResult::violators).
    void blame(const std::string& peerId, bool authenticated, const std::string& why) {
        const int member = spec_.indexOf(peerId);
        if (member >= 0 && member != me_)
            exclude(member, why);
        else
            result_.violations.push_back(why);
        if (authenticated && peerId != self().peerId)
            result_.violators.push_back({peerId, why});
    }

    // A check of the plan failed: the group's members, roles, epoch, spans, part sizes or encoding. The
    // sender may have been given another plan than this member (a leader that sends members different
    // GroupBegins), so it is excluded from this round but not held against it; an honest member would
    // otherwise ban honest members, every epoch, on a lying leader's word.
    void planMismatch(const std::string& peerId, const std::string& why) {
        notePlanMismatch(peerId);
        blame(peerId, false, "a plan mismatch: " + why);
    }

    void notePlanMismatch(const std::string& peerId) {
        if (const int member = spec_.indexOf(peerId); member >= 0 && member != me_)
            misfit_[static_cast<std::size_t>(member)] = true;
    }

    // A member of this plan that speaks of another group at this epoch and has sent nothing that fits this
    // one: the leader gave it another group id (each group's messages are valid on their own, so nothing
    // else shows that split). Counted as a misfit (plansDiffer), and told once, with a PartFailure of this
    // group, so that a member that aggregates nothing (a client, which this aggregator would otherwise
    // leave in silence) counts this aggregator as a misfit too. A member that left this group, or that
    // was excluded, is not evidence: it may have joined another group at this epoch.
    void noteOtherGroup(const net::WireMessage& message) {
        const std::optional<RoundOf> round = roundOf(message.envelope);
        if (!round || round->epoch != spec_.epoch || round->groupId == options_.companionGroup)
            return;
        const int member = spec_.indexOf(message.envelope.sender());
        if (member < 0 || member == me_)
            return;
        const auto m = static_cast<std::size_t>(member);
        if (fitted_[m] || (spec_.members[m].sends() && reducer_->excluded(m)))
            return;
        notePlanMismatch(message.envelope.sender());
        if (toldOfOtherGroup_[m] || !router_ || message.route.size() == 0)
            return;
        toldOfOtherGroup_[m] = true;
        wire::Envelope envelope;
        wire::PartFailure* failure = envelope.mutable_part_failure();
        failure->set_group_id(spec_.groupId);
        failure->set_epoch(spec_.epoch);
        failure->set_span(static_cast<std::uint32_t>(me_));
        failure->set_reason("a message for another group at this epoch: not this aggregator's group");
        std::vector<zmq::message_t> frames = codec_.encode(std::move(envelope));
        const zmq::message_t route(message.route.data(), message.route.size());
        if (net::MessageCodec::trySend(*router_, frames, &route, true) == net::MessageCodec::SendResult::Sent)
            result_.bytesSent += sizeOf(frames);
    }

    // A member's message to this aggregator that names this round's group.
    bool ofThisGroup(const wire::Envelope& envelope) const {
        if (envelope.has_span_received())
            return envelope.span_received().group_id() == spec_.groupId;
        if (envelope.has_round_seals())
            return envelope.round_seals().group_id() == spec_.groupId;
        if (envelope.has_audit_request())
            return envelope.audit_request().group_id() == spec_.groupId;
        return isRoundMessage(envelope, spec_.groupId);
    }

    void onRouterMessage(net::WireMessage message) {
        const wire::Envelope& envelope = message.envelope;
        // The sender is the peer the codec authenticated (under CURVE, the one the connection's handshake
        // admitted): its latest connection in this round is where its replies go. Only this group's
        // messages say so: a member's next round (its state round follows at once) connects anew, and an
        // aggregator still in this one that followed those sent this round's averages to the next round's
        // connection, where they misfit that round's plan (the 40-volunteer soak: a client took an honest
        // leader for one that split plans;
        // tst_allreduce_processes::aMembersNextRoundDoesNotTakeThisRoundsReplies).
        if (!ofThisGroup(envelope)) {
            noteOtherGroup(message);
            // Kept for the caller within a bound in bytes: any admitted peer may send parts for groups it
            // makes up while the round runs, and the caller bounds what it keeps the same way (RoundStash).
            const std::uint64_t cost = RoundStash::costOf(message);
            if (otherBytes_ + cost <= RoundStash::kMaxBytes) {
                otherBytes_ += cost;
                result_.otherMessages.push_back(std::move(message));
            }
            return;
        }
        if (const int member = spec_.indexOf(envelope.sender()); member >= 0 && message.route.size() > 0)
            routes_[static_cast<std::size_t>(member)] = message.route.to_string();
        if (envelope.has_span_received())
            return onConfirmation(envelope);
        if (envelope.has_member_connected())
            return onConnected(envelope);
        if (envelope.has_round_seals())
            return onRoundSeals(envelope);
        if (envelope.has_audit_request())
            return onAuditRequest(envelope);
        const wire::TensorPart& part = envelope.tensor_part();
        // The member is the message's sender, which the codec authenticated (under CURVE, the peer the
        // connection's handshake admitted), never the connection's routing id, which libzmq makes up.
        const int sender = spec_.indexOf(envelope.sender());
        if (sender == me_)
            return planMismatch(envelope.sender(), "a part in this member's own name");
        if (sender < 0)
            return planMismatch(envelope.sender(), "a part from a peer that is not a member of the group");
        const std::size_t s = static_cast<std::size_t>(sender);
        if (!spec_.members[s].sends())
            return planMismatch(envelope.sender(), "a part from an auxiliary member");
        if (reducer_->excluded(s))
            return; // too late: the parts went ahead without it
        if (part.epoch() != spec_.epoch || part.span() != static_cast<std::uint32_t>(me_) ||
            part.part() >= reducer_->partCount())
            return planMismatch(envelope.sender(), "a part for another epoch, span or part index");
        const ElementRange range = plan_.part(me_, part.part());
        if (part.offset() != static_cast<std::uint64_t>(range.offset) ||
            part.count() != static_cast<std::uint64_t>(range.size) ||
            part.encoding().SerializeAsString() != spec_.encoding.SerializeAsString())
            return planMismatch(envelope.sender(),
                                "a part whose offset, count or encoding differs from the plan");
        // The weight is the sender's sample count when it handed its vector over, which may exceed what it
        // declared when it joined (it kept training while the group formed); all its parts carry the same.
        if (!std::isfinite(part.weight()) || part.weight() < 0.0 ||
            part.weight() > static_cast<double>(PeerProgressRules::kMaxSamples))
            return blame(envelope.sender(), true,
                         "a part with a weight that is not a plausible sample count");
        if (s < options_.maxWeights.size() && part.weight() > options_.maxWeights[s]) {
            result_.overweightSenders.push_back(envelope.sender());
            return blame(envelope.sender(), true,
                         "a part with a weight of " + std::to_string(part.weight()) +
                             ", above the most its sender may put on it (" +
                             std::to_string(options_.maxWeights[s]) + ")");
        }
        if (weights_[s] && *weights_[s] != part.weight())
            return blame(envelope.sender(), true, "parts of one sender with different weights");
        if (!weights_[s])
            fixWeight(s, part.weight());
        markConnected(s);
        if (reducer_->done(part.part()) || reducer_->arrived(part.part(), s))
            return; // a duplicate, or it came after the part went ahead: no progress, so not "heard from"
        // Only a new part counts as hearing from a sender: a member repeating one part, or its connection
        // notice, within the rules would otherwise hold every aggregator until the round's deadline.
        heardFrom_[s] = Clock::now();
        fitted_[s] = true;
        std::vector<float> values(static_cast<std::size_t>(range.size));
        try {
            TensorEncoding::decode(message.data.front(), range.size, spec_.encoding, values.data());
        } catch (const std::exception& e) {
            return blame(envelope.sender(), true, e.what());
        }
        if (const std::string below = belowFloor(range, values.data()); !below.empty())
            return blame(envelope.sender(), true, "a part " + below);
        // Under sealing the part must carry its sender's signature: an aggregator that added an unsigned
        // part could not show an auditor what its mean is made of.
        if (sealing()) {
            if (const std::string problem = PartSignatures::problemWith(codec_.runId(), envelope.sender(),
                                                                        part, message.data.front());
                !problem.empty())
                return blame(envelope.sender(), true, "a part that " + problem);
            kept_[part.part()][s] = KeptInput{part, std::move(message.data.front())};
        }
        reducer_->add(part.part(), s, values.data());
        Arrivals& arrivals = arrivals_[s];
        arrivals.last = Clock::now();
        if (arrivals.parts++ == 0)
            arrivals.first = arrivals.last;
    }

    // The member that sent `envelope` (`what`: "a connection notice", ...), when it is another member that
    // sends parts; otherwise a plan mismatch (not such a member in this plan), and nothing.
    std::optional<std::size_t> sendingMember(const wire::Envelope& envelope, const std::string& what) {
        const int member = spec_.indexOf(envelope.sender()); // as for parts: not the routing id
        if (member < 0 || member == me_ || !spec_.members[static_cast<std::size_t>(member)].sends()) {
            planMismatch(envelope.sender(),
                         what + " from a peer that is not another member that sends parts");
            return std::nullopt;
        }
        return static_cast<std::size_t>(member);
    }

    void onConnected(const wire::Envelope& envelope) {
        const std::optional<std::size_t> member = sendingMember(envelope, "a connection notice");
        if (!member)
            return;
        if (envelope.member_connected().epoch() != spec_.epoch)
            return planMismatch(envelope.sender(), "a connection notice for another epoch");
        if (connectedAt_[*member])
            return; // said before, or parts came: a repeated notice is no progress
        markConnected(*member);
        heardFrom_[*member] = Clock::now();
    }

    void markConnected(std::size_t member) {
        if (!connectedAt_[member])
            connectedAt_[member] = Clock::now();
    }

    void onConfirmation(const wire::Envelope& envelope) {
        const wire::SpanReceived& received = envelope.span_received();
        const std::optional<std::size_t> member = sendingMember(envelope, "a span confirmation");
        if (!member)
            return;
        if (received.epoch() != spec_.epoch || received.span() != static_cast<std::uint32_t>(me_))
            return planMismatch(envelope.sender(), "a span confirmation for another epoch or span");
        confirmed_[*member] = true;
    }

    // A member's seals: each must be a valid seal of this group (one that is not was made up or altered on
    // the way, and is the passer's doing), and any that differs from the seal held for its span is the
    // proof that its aggregator equivocated: named among the violators, whose signature is the evidence
    // whoever passed it on.
    void onRoundSeals(const wire::Envelope& envelope) {
        const std::optional<std::size_t> member = sendingMember(envelope, "seals");
        if (!member || !sealing())
            return;
        if (envelope.round_seals().epoch() != spec_.epoch)
            return planMismatch(envelope.sender(), "seals for another epoch");
        if (sealsFrom_[*member])
            return;
        // At most one seal per span: each costs a signature check, and no honest member holds more.
        if (static_cast<std::size_t>(envelope.round_seals().seals_size()) > spec_.members.size())
            return blame(envelope.sender(), true, "passed on more seals than the group has spans");
        sealsFrom_[*member] = true;
        heardFrom_[*member] = Clock::now();
        for (const wire::SpanSeal& seal : envelope.round_seals().seals()) {
            if (const std::string problem = SpanSeals::problemWith(codec_.runId(), spec_, seal);
                !problem.empty())
                return blame(envelope.sender(), false, "passed on a seal that " + problem);
            holdSeal(seal);
        }
    }

    // Holds a valid seal; one that differs from the seal held for its span proves that the span's
    // aggregator equivocated, whoever passed it on (the signature is the evidence): it is named among the
    // violators, once.
    void holdSeal(const wire::SpanSeal& seal) {
        const std::string proof = seals_.record(seal);
        if (!proof.empty() && equivocators_.insert(seal.aggregator()).second) {
            result_.violations.push_back(proof);
            result_.violators.push_back({seal.aggregator(), proof});
        }
    }

    // What each sender demonstrably delivered: it streams its whole vector (every span but its own) at
    // once, its parts to all aggregators interleaved, and over the same time its link also carries the
    // averages of its own span back to the other senders; so the time from when it could start streaming
    // to its last part here bounds how fast it uploaded. It could start once every sender was connected
    // (greet(): this aggregator saw the last connection then, or gave up waiting), whenever its first part
    // came: a sender that holds this aggregator's parts back and sends them in a burst at the end shows
    // its real pace, not the burst's. A lower bound (this aggregator's own link, or the sender's compute,
    // may have been the slower); senders with too few parts here to time are left out.
    void measureSenders() {
        constexpr std::uint32_t kMinParts = 4;
        const auto senders = std::count_if(spec_.members.begin(), spec_.members.end(),
                                           [](const GroupMember& member) { return member.sends(); });
        Clock::time_point everyoneConnected = start_;
        for (std::size_t m = 0; m < spec_.members.size(); ++m)
            if (static_cast<int>(m) != me_ && spec_.members[m].sends())
                everyoneConnected =
                    std::max(everyoneConnected, connectedAt_[m].value_or(start_ + options_.connectWait));
        everyoneConnected = std::min(everyoneConnected, start_ + options_.connectWait);
        for (std::size_t s = 0; s < arrivals_.size(); ++s) {
            const Arrivals& arrivals = arrivals_[s];
            const Clock::time_point from = std::min(arrivals.first, everyoneConnected);
            const double seconds = std::chrono::duration<double>(arrivals.last - from).count();
            if (static_cast<int>(s) == me_ || arrivals.parts < kMinParts || seconds < 0.01)
                continue;
            const double values = static_cast<double>(spec_.vectorSize - spec_.spanCounts[s]) +
                                  static_cast<double>(spec_.spanCounts[s]) * static_cast<double>(senders - 1);
            result_.senderRates.emplace_back(spec_.members[s].peerId, values / seconds);
        }
    }

    void drainDealer(std::size_t aggregator) {
        zmq::socket_t& socket = dealers_.at(aggregator);
        for (int budget = 64; budget > 0 && Clock::now() >= downloadAllowedAt_; --budget) {
            std::optional<std::vector<zmq::message_t>> frames;
            try {
                frames = net::MessageCodec::receive(socket, 0ms);
            } catch (const net::ProtocolViolation& e) {
                result_.violations.push_back(e.what());
                continue;
            }
            if (!frames)
                return;
            noteDownload(sizeOf(*frames));
            try {
                onAveraged(aggregator, codec_.decode(std::move(*frames)));
            } catch (const std::exception& e) {
                // A broken average poisons the span: keep the local values for it.
                parts_.fail(aggregator);
                result_.violations.push_back(e.what());
            }
        }
    }

    // An aggregator's reply that does not fit this member's plan: counted among the plan's misfits, like a
    // member's part (plansDiffer), and thrown, which fails the span.
    net::ProtocolViolation misfit(std::size_t aggregator, const std::string& why) {
        notePlanMismatch(spec_.members[aggregator].peerId);
        return net::ProtocolViolation(why);
    }

    void onAveraged(std::size_t aggregator, const net::WireMessage& message) {
        const wire::Envelope& envelope = message.envelope;
        if (envelope.sender() != spec_.members[aggregator].peerId)
            throw net::ProtocolViolation("a reply on an aggregator's connection from another peer");
        if (envelope.has_part_failure()) {
            // One of another group or epoch: that aggregator was given another plan (noteOtherGroup).
            if (envelope.part_failure().group_id() != spec_.groupId ||
                envelope.part_failure().epoch() != spec_.epoch)
                throw misfit(aggregator, "a span given up for another group or epoch");
            if (!parts_.failed(aggregator)) {
                const std::string& peerId = spec_.members[aggregator].peerId;
                result_.violations.push_back(
                    "aggregator " + net::LogText::shortHex(peerId) +
                    " gave its span up: " + net::LogText::utf8(envelope.part_failure().reason()));
                // A leaver sends no parts to this member's span either: no need to wait the sender timeout.
                if (envelope.part_failure().left_group()) {
                    result_.leftBeforeRound.push_back(peerId);
                    exclude(static_cast<int>(aggregator), "a member that left the group sends no parts");
                }
            }
            parts_.fail(aggregator);
            return;
        }
        if (envelope.has_span_seal())
            return onSeal(aggregator, envelope.span_seal());
        if (envelope.has_audited_part())
            return onAuditedPart(aggregator, message);
        if (!envelope.has_averaged_part())
            return;
        const wire::AveragedPart& part = envelope.averaged_part();
        if (part.group_id() != spec_.groupId || part.epoch() != spec_.epoch ||
            part.span() != static_cast<std::uint32_t>(aggregator) ||
            static_cast<std::int64_t>(part.part()) >= plan_.partCount(static_cast<std::int64_t>(aggregator)))
            throw misfit(aggregator, "an averaged part for another group, epoch, span or part");
        const ElementRange range = plan_.part(static_cast<std::int64_t>(aggregator), part.part());
        if (part.offset() != static_cast<std::uint64_t>(range.offset) ||
            part.count() != static_cast<std::uint64_t>(range.size) ||
            part.encoding().SerializeAsString() != spec_.encoding.SerializeAsString())
            throw misfit(aggregator,
                         "an averaged part whose offset, count or encoding differs from the plan");
        if (!parts_.awaits(aggregator, part.part()))
            return; // a repeated average is no progress: the span's timeout runs on
        heardFrom_[aggregator] = Clock::now();
        fitted_[aggregator] = true;
        const std::span<const float> averaged = parts_.place(aggregator, part.part(), message.data.front());
        // An aggregator's mean obeys the floors its inputs obey: one below them comes from an aggregator
        // that added a part it should have refused (its own, say). The span keeps the local values.
        if (const std::string below = belowFloor(range, averaged.data()); !below.empty()) {
            const std::string why =
                "aggregator " +
                QByteArray::fromStdString(spec_.members[aggregator].peerId).toHex().toStdString() +
                " sent an averaged part " + below;
            if (secure_) // the connection went to its key: the mean is its own
                result_.violators.push_back({spec_.members[aggregator].peerId, why});
            throw net::ProtocolViolation(why);
        }
        if (!parts_.received(aggregator, part.part()))
            return;
        // Every part of the span went ahead: whatever of this member's is still unsent would be ignored.
        staged_.erase(aggregator);
        if (!sealing())
            return takeSpan(
                aggregator); // else taken once its seal, which follows the last part, says the same
    }

    void takeSpan(std::size_t aggregator) {
        parts_.take(aggregator);
        result_.spanAveraged[aggregator] = true;
        confirmationsDue_.insert(aggregator);
    }

    // The aggregator's seal on its span (sealing): taken when it is its valid seal of the values received.
    void onSeal(std::size_t aggregator, const wire::SpanSeal& seal) {
        if (!sealing() || parts_.failed(aggregator) || result_.spanAveraged[aggregator])
            return; // a seal already taken is no progress
        const std::string& peerId = spec_.members[aggregator].peerId;
        if (!parts_.whole(aggregator))
            throw net::ProtocolViolation("aggregator " + net::LogText::shortHex(peerId) +
                                         " sealed its span before its last averaged part");
        if (const std::string problem = SpanSeals::problemWith(codec_.runId(), spec_, seal);
            !problem.empty() || seal.span() != aggregator)
            throw net::ProtocolViolation("aggregator " + net::LogText::shortHex(peerId) +
                                         " sent a seal that " +
                                         (problem.empty() ? "is for another span" : problem));
        if (seal.values_sha256() != parts_.digest(aggregator)) {
            const std::string why = "aggregator " + QByteArray::fromStdString(peerId).toHex().toStdString() +
                                    " sent averages that differ from its own seal of them";
            if (secure_) // the connection went to its key: the averages are its own
                result_.violators.push_back({peerId, why});
            throw net::ProtocolViolation(why); // which fails the span
        }
        heardFrom_[aggregator] = Clock::now();
        holdSeal(seal); // one passed on by a member that finished first may be there already
        if (audited_.count(aggregator))
            return startAudit(aggregator, seal);
        takeSpan(aggregator);
    }

    // Audited averages, as the auditor: asks the aggregator for the inputs of one part of its span, chosen
    // at random now that the seal binds it to the averages; the span waits for the verdict (or is given
    // up with the aggregator, silent for the aggregator timeout).
    void startAudit(std::size_t aggregator, const wire::SpanSeal& seal) {
        static thread_local std::mt19937_64 random{std::random_device{}()};
        const auto a = static_cast<std::int64_t>(aggregator);
        const std::int64_t p = std::uniform_int_distribution<std::int64_t>(0, plan_.partCount(a) - 1)(random);
        audits_.emplace(std::piecewise_construct, std::forward_as_tuple(aggregator),
                        std::forward_as_tuple(
                            codec_.runId(), spec_, aggregator, p, plan_.part(a, p),
                            std::vector<double>(seal.counted_weights().begin(), seal.counted_weights().end()),
                            options_.centeredClip));
        auditRequestsDue_.insert(aggregator);
        sendAuditRequests();
    }

    // Asks each aggregator whose audit began for its inputs; one whose queue is full is asked on a later
    // turn (its silence past the aggregator timeout gives the span up).
    void sendAuditRequests() {
        for (auto it = auditRequestsDue_.begin(); it != auditRequestsDue_.end();) {
            if (!audits_.count(*it)) { // decided (given up) before its request left
                it = auditRequestsDue_.erase(it);
                continue;
            }
            wire::Envelope envelope;
            wire::AuditRequest* request = envelope.mutable_audit_request();
            request->set_group_id(spec_.groupId);
            request->set_epoch(spec_.epoch);
            request->set_span(static_cast<std::uint32_t>(*it));
            request->set_part(static_cast<std::uint32_t>(audits_.at(*it).part()));
            it = tell(*it, std::move(envelope)) ? auditRequestsDue_.erase(it) : std::next(it);
        }
    }

    void onAuditedPart(std::size_t aggregator, const net::WireMessage& message) {
        const auto audit = audits_.find(aggregator);
        if (audit == audits_.end() || parts_.failed(aggregator) || result_.spanAveraged[aggregator])
            return; // not asked, or decided: no progress
        heardFrom_[aggregator] = Clock::now();
        const std::string& peerId = spec_.members[aggregator].peerId;
        const std::string who = "aggregator " + net::LogText::shortHex(peerId);
        // What it shows came on its own connection: under CURVE, its doing; the signatures are the senders'.
        if (const std::string lie = audit->second.add(message.envelope.audited_part(), message.data.front());
            !lie.empty())
            return endAudit(aggregator, who + " " + lie, secure_);
        if (!audit->second.complete())
            return;
        const std::int64_t p = audit->second.part();
        const PartAudit::Verdict verdict = audit->second.judge(parts_.averaged(aggregator, p));
        const std::string what = "audit of part " + std::to_string(p) + " of " + who + "'s span: ";
        switch (verdict.kind) {
        case PartAudit::Verdict::Kind::Fits:
            result_.audits.push_back(what + "its inputs give the mean received");
            audits_.erase(audit);
            return takeSpan(aggregator);
        case PartAudit::Verdict::Kind::Unproven:
            return endAudit(aggregator,
                            "audit of " + who + "'s span: it " + verdict.why +
                                "; the span keeps the local values",
                            false);
        case PartAudit::Verdict::Kind::Lie:
            // The seal (its signature over the averages and the counted weights) and the inputs (their
            // senders' signatures) are the proof, whoever relayed them.
            return endAudit(aggregator, who + " " + verdict.why, true);
        }
    }

    // Ends an audit without taking the span: it keeps this member's values. `line` is said in the result;
    // `proven`: a lie that the caller may hold against the aggregator (a violator), else nothing is.
    void endAudit(std::size_t aggregator, const std::string& line, bool proven) {
        result_.audits.push_back(line);
        result_.violations.push_back(line);
        if (proven)
            result_.violators.push_back({spec_.members[aggregator].peerId, line});
        audits_.erase(aggregator);
        parts_.fail(aggregator);
    }

    // Audited averages, as the aggregator: shows a member that asked, once, the inputs of one part of its
    // sealed span: each kept as its sender signed it, its own in float32 signed by itself.
    void onAuditRequest(const wire::Envelope& envelope) {
        const std::optional<std::size_t> member = sendingMember(envelope, "an audit request");
        if (!member || !sealing())
            return;
        const wire::AuditRequest& request = envelope.audit_request();
        if (request.epoch() != spec_.epoch || request.span() != static_cast<std::uint32_t>(me_) ||
            request.part() >= reducer_->partCount())
            return planMismatch(envelope.sender(), "an audit request for another epoch, span or part");
        // Before the seal there is nothing to audit (an honest auditor asks after it), and one audit per
        // member and round bounds what a member can make this aggregator send.
        if (!result_.spanAveraged[static_cast<std::size_t>(me_)] || ownSpanFailed_ ||
            auditedBy_.count(*member))
            return;
        auditedBy_.insert(*member);
        heardFrom_[*member] = Clock::now();
        const std::uint32_t p = request.part();
        const ElementRange range = plan_.part(me_, p);
        std::vector<std::size_t> senders; // whose inputs its mean of part p used, besides its own
        for (std::size_t s = 0; s < kept_[p].size(); ++s)
            if (kept_[p][s])
                senders.push_back(s);
        const auto inputs = static_cast<std::uint32_t>(senders.size() + (ownInput_.empty() ? 0 : 1));
        const auto show = [&](const std::string& sender, const wire::TensorPart& part,
                              const zmq::message_t& data) {
            wire::Envelope reply;
            wire::AuditedPart* shown = reply.mutable_audited_part();
            shown->set_sender(sender);
            *shown->mutable_part() = part;
            shown->set_inputs(inputs);
            replyTo(*member, reply, &data); // the values' one copy, for the queue
        };
        if (!ownInput_.empty()) {
            wire::TensorPart own;
            fillPartHeader(own, spec_, static_cast<std::size_t>(me_), p, range);
            *own.mutable_encoding() = TensorEncoding::fp32();
            own.set_weight(ownWeight_);
            const zmq::message_t data =
                TensorEncoding::encode(ownInput_.data() + (range.offset - plan_.span(me_).offset), range.size,
                                       TensorEncoding::fp32());
            PartSignatures::sign(codec_.runId(), *options_.sealWith, own, data);
            show(self().peerId, own, data);
        }
        for (const std::size_t s : senders)
            show(spec_.members[s].peerId, kept_[p][s]->part, kept_[p][s]->data);
    }

    const GroupSpec& spec_;
    int me_;
    const net::MessageCodec& codec_;
    zmq::socket_t* router_;
    const AllReduceOptions& options_;
    const bool secure_; // CURVE: the ZAP handler names the peer behind each connection
    struct Arrivals {
        Clock::time_point first{};
        Clock::time_point last{};
        std::uint32_t parts = 0;
    };
    std::vector<Arrivals> arrivals_; // per sender: its parts of this aggregator's span
    PartitionPlan plan_;
    PartContainer parts_; // this member's vector, its parts to send, the averages coming back
    AllReduceResult result_;
    Clock::time_point start_;

    std::vector<Clock::time_point> heardFrom_; // last message from each member
    std::vector<bool> fitted_;           // a part or an average from each member fitted this member's plan
    std::vector<bool> misfit_;           // ... or did not (AllReduceResult::planMismatches, at the end)
    std::vector<bool> toldOfOtherGroup_; // members told that their group is not this one (noteOtherGroup)
    std::set<std::size_t> confirmationsDue_; // aggregators to tell that their span arrived
    // Sealed averages (AllReduceOptions::sealWith): the seals held; aggregators to pass them on to; per
    // member, it passed its own on; aggregators proved to have equivocated.
    SealLedger seals_{spec_.members.size()};
    bool sealsPassed_ = false;
    std::set<std::size_t> sealsDue_;
    std::vector<bool> sealsFrom_;
    std::set<std::string> equivocators_;
    // As an aggregator, per member: it confirmed this span; a reply found it unreachable; the last reply
    // to it handed to the ROUTER.
    std::vector<bool> confirmed_;
    std::vector<bool> unreachable_;
    // Per member, the ROUTER's id for the connection of its latest message (libzmq names connections
    // itself, so no peer can claim another's and take its replies: SocketFactory). Replies go there.
    std::vector<std::string> routes_;
    // As an aggregator, per member: since when its connection is up (it said so, or sent); none yet.
    std::vector<std::optional<Clock::time_point>> connectedAt_;
    std::set<std::size_t> greeted_; // aggregators this member told that its connection is up
    bool streaming_ = false;        // this member's parts may go out (greet())
    std::vector<Clock::time_point> lastReplyAt_;
    std::uint64_t otherBytes_ = 0; // held in result_.otherMessages
    double ownWeight_ = 0.0;       // this member's weight as it sends it (0 when its vector was not finite)
    bool ownSpanFailed_ = false;   // its span's mean overflowed: everybody keeps local values for it
    bool repliesBlocked_ = false;  // every reply left waits for a member whose queue is full
    // Each sender's averaging weight, fixed by its first part (this member's own: from the spec).
    std::vector<std::optional<double>> weights_;

    std::map<std::size_t, zmq::socket_t> dealers_;
    std::map<std::size_t, std::vector<zmq::message_t>> staged_;
    std::optional<SpanReducer> reducer_; // this member's span, as its aggregator
    // Audited averages, as the aggregator: per part, per member, the signed input its mean used; its own
    // values as they went into the means; the members that audited it.
    struct KeptInput {
        wire::TensorPart part;
        zmq::message_t data;
    };
    std::vector<std::vector<std::optional<KeptInput>>> kept_;
    std::vector<float> ownInput_;
    std::set<std::size_t> auditedBy_;
    // As the auditor: the aggregators it audits, and each audit under way (its part and its check).
    std::set<std::size_t> audited_;
    std::map<std::size_t, PartAudit> audits_;
    std::set<std::size_t> auditRequestsDue_; // audits whose request waits for room in the queue
    std::deque<Outgoing> replies_;

    std::optional<net::ConnectionPacer> pacer_; // made once the DEALERs exist
    net::TokenBucket upload_;
    net::TokenBucket download_;
    Clock::time_point uploadAllowedAt_{};
    Clock::time_point downloadAllowedAt_{};

    Phase phase_ = Phase::Idle;
    Clock::time_point deadline_{};
    Clock::time_point nextPacing_{};
    std::function<void(const std::string&)> log_;
};

AllReduceRound::~AllReduceRound() = default;

const char* AllReduceRound::nameOf(Phase phase) {
    switch (phase) {
    case Phase::Idle:
        return "idle";
    case Phase::Connecting:
        return "connecting";
    case Phase::Streaming:
        return "streaming";
    case Phase::Done:
        return "done";
    }
    return "?";
}

void AllReduceRound::start(std::vector<float> local, std::vector<net::WireMessage> early) {
    if (state_)
        throw std::logic_error("a round runs once");
    state_ = std::make_unique<State>(spec_, me_, codec_, sockets_, router_, options_, std::move(local));
    state_->onTransition(log_);
    state_->start(std::move(early));
}

void AllReduceRound::step() {
    if (state_)
        state_->step();
}

std::vector<zmq::pollitem_t> AllReduceRound::pollItems() {
    return state_ && state_->phase() != Phase::Done ? state_->pollItems() : std::vector<zmq::pollitem_t>{};
}

std::chrono::steady_clock::time_point AllReduceRound::wakeAt() const {
    return state_ ? state_->wakeAt() : std::chrono::steady_clock::now();
}

AllReduceRound::Phase AllReduceRound::phase() const {
    return state_ ? state_->phase() : Phase::Idle;
}

void AllReduceRound::finishNow(const std::string& why) {
    if (state_ && state_->phase() != Phase::Done)
        state_->finish(why);
}

std::vector<net::WireMessage> AllReduceRound::takeOtherMessages() {
    return state_ ? state_->takeOtherMessages() : std::vector<net::WireMessage>{};
}

AllReduceResult AllReduceRound::takeResult() {
    if (phase() != Phase::Done)
        throw std::logic_error("the round has not finished");
    return state_->take();
}

void AllReduceRound::keepDealersIn(DealerPool& pool) {
    if (phase() != Phase::Done)
        throw std::logic_error("the round has not finished");
    state_->keepDealersIn(pool);
}

AllReduceResult AllReduceRound::run(std::vector<float> local, std::vector<net::WireMessage> early) {
    if (state_)
        throw std::logic_error("a round runs once");
    state_ = std::make_unique<State>(spec_, me_, codec_, sockets_, router_, options_, std::move(local));
    state_->onTransition(log_);
    return state_->run(std::move(early));
}

} // namespace sahaj::collab
