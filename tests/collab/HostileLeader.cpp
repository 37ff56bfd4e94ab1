#include "tests/collab/HostileLeader.h"

#include "core/collab/GroupPlanner.h"
#include "core/collab/MatchmakingBoard.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"

#include <QRandomGenerator>

#include <chrono>
#include <stdexcept>

namespace sahaj::test {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Made-up members of a crowd: enough that a follower which took the group would open a thousand DEALERs.
constexpr int kMadeUpMembers = 1000;

std::uint64_t wallMs() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

collab::GroupMember memberOf(const wire::MemberInfo& info) {
    return {info.peer_id(), info.role(), info.endpoint(), info.bandwidth(), info.weight(), info.token(), {}};
}

} // namespace

HostileLeader::Kind HostileLeader::kindFromName(const std::string& name) {
    if (name == "never-begins")
        return Kind::NeverBegins;
    if (name == "tiny-parts")
        return Kind::TinyParts;
    if (name == "crowd")
        return Kind::Crowd;
    throw std::invalid_argument("unknown leader attack '" + name + "' (never-begins, tiny-parts, crowd)");
}

HostileLeader::HostileLeader(dht::DhtNode& dht, const net::MessageCodec& codec, zmq::socket_t& router,
                             Kind kind, Plan plan)
    : dht_(dht), codec_(codec), router_(router), kind_(kind), plan_(std::move(plan)) {}

void HostileLeader::run(std::uint64_t epoch, const std::atomic<bool>& stop) {
    collab::MatchmakingBoard board(dht_, QString::fromStdString(codec_.runId()));
    const std::string endpoint = net::SocketFactory::boundEndpoint(router_);
    std::vector<wire::MemberInfo> accepted;
    std::size_t begun = 0; // members sent a GroupBegin so far
    Clock::time_point lastDeclared{};
    Clock::time_point lastAccepted{};
    while (!stop) {
        const Clock::time_point now = Clock::now();
        if (now - lastDeclared >= 500ms) {
            board.declare(epoch, endpoint, plan_.schemaHash, wallMs() + 1500, 3s);
            lastDeclared = now;
        }
        zmq::pollitem_t item{router_.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, 100ms);
        const std::size_t before = accepted.size();
        if (item.revents & ZMQ_POLLIN)
            answer(epoch, accepted);
        if (accepted.size() > before)
            lastAccepted = Clock::now();
        // A second after the last member joined, a lying leader begins its group with every member so far.
        if (kind_ != Kind::NeverBegins && accepted.size() > begun && Clock::now() - lastAccepted >= 1s) {
            begin(epoch, accepted);
            begun = accepted.size();
        }
    }
}

void HostileLeader::answer(std::uint64_t epoch, std::vector<wire::MemberInfo>& accepted) {
    for (;;) {
        zmq::message_t route;
        std::optional<std::vector<zmq::message_t>> frames;
        net::WireMessage message;
        try {
            frames = net::MessageCodec::receive(router_, 0ms, &route);
            if (!frames)
                return;
            message = codec_.decode(std::move(*frames));
        } catch (const net::ProtocolViolation&) {
            continue;
        }
        if (!message.envelope.has_join_request() || message.envelope.join_request().epoch() != epoch)
            continue;
        wire::Envelope reply;
        reply.set_request_id(message.envelope.request_id());
        reply.mutable_join_reply()->set_code(wire::JoinReply::ACCEPTED);
        std::vector<zmq::message_t> out = codec_.encode(std::move(reply));
        net::MessageCodec::send(router_, out, &route, true);
        const wire::MemberInfo& member = message.envelope.join_request().member();
        routes_[member.peer_id()] = route.to_string();
        bool known = false;
        for (const wire::MemberInfo& other : accepted)
            known = known || other.peer_id() == member.peer_id();
        if (!known)
            accepted.push_back(member);
    }
}

void HostileLeader::begin(std::uint64_t epoch, const std::vector<wire::MemberInfo>& accepted) {
    std::vector<collab::GroupMember> members{
        {codec_.peerId(), wire::ROLE_NODE, net::SocketFactory::boundEndpoint(router_), 1e6, 1.0, {}, {}}};
    for (const wire::MemberInfo& info : accepted)
        members.push_back(memberOf(info));
    if (kind_ == Kind::Crowd) {
        for (int i = 0; i < kMadeUpMembers; ++i) {
            std::string peerId(32, '\0');
            QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(peerId.data()), 8);
            // Port 9 (discard) on loopback: nobody there, so a follower would only try and try again.
            members.push_back({peerId, wire::ROLE_NODE, "tcp://127.0.0.1:9", 1e6, 1.0, {}, {}});
        }
    }
    const std::int64_t partElements = kind_ == Kind::TinyParts ? 1 : plan_.partElements;
    const wire::GroupBegin plan =
        collab::GroupPlanner::plan(std::move(members), epoch, plan_.encoding, plan_.vectorSize, partElements)
            .toWire();
    for (const wire::MemberInfo& info : accepted) {
        wire::Envelope envelope;
        *envelope.mutable_group_begin() = plan;
        std::vector<zmq::message_t> frames = codec_.encode(std::move(envelope));
        const std::string& routeId = routes_[info.peer_id()];
        const zmq::message_t route(routeId.data(), routeId.size());
        net::MessageCodec::send(router_, frames, &route, true);
    }
}

} // namespace sahaj::test
