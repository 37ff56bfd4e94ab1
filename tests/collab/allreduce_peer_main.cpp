// sahaj-allreduce-peer: one member of a butterfly all-reduce, as its own process, for the multi-process
// tests and the all-reduce benchmark (--bind ADDR: the address its ROUTER binds, default 127.0.0.1). It binds
// its ROUTER (unless it is a client), prints {"peer", "endpoint"} as a JSON line, reads the group (a
// GroupBegin, base64) from one line of standard input, runs the round on its test vector and prints the
// outcome as a JSON line: {"sha256", "complete", "span_averaged", "excluded", "bytes_sent", "bytes_received",
// "seconds", "total_weight", "paced_connections", "unconnected", "left_before_round"}. Then it waits for
// standard input to close, so that its ROUTER keeps serving late members until the test is done; with --leave
// yes it exits at once instead, as a peer that quits right after its round. --upload, --download: the user's
// caps, in bytes per second.
// --start-delay-ms N: begins its round N ms after it read the group (a member that is late);
// --connect-wait-ms N: how long it waits for the round's connections before it streams
// (AllReduceOptions::connectWait).
// --pace yes: each connection of the round paced as the engine paces a link of the declared bandwidth.
// --curve yes: CURVE on every socket, with a ZAP handler admitting the members' keys; the keys are derived
// from each member's index (public by design: the processes need no key exchange), for measuring what
// encryption costs a round.
// --misbehave KIND: instead of running the round it sends every other aggregator parts that break one rule
// (see MisbehavingMember for the kinds), prints {"misbehaved", "parts_sent", "parts_unsent", "seconds"} and
// waits the same way.
// --hijack N: before its own round it opens, to every other aggregator, a second connection that claims
// member N's peer id as its routing id (with its own CURVE keys, which they admit), and reports in
// "hijacked_frames" what arrived on them: a peer must not be able to take another's replies that way.
// --next-round-after-ms N: N ms into its round it starts its next one, as a peer's state round follows its
// gradient round at once: a connection of its own to every other aggregator, sending a connection notice of
// another group every 200 ms until this round ends; it reports in "next_round_frames" what arrived on them.
// A slower aggregator, still in this round, must send this one's averages where its parts came from.
// --left-group yes: it left the group before its round, as a peer that would step apart from the
// collaboration does (CollaborationLink): it sends nothing and answers every message of the round on its
// ROUTER with a PartFailure that says so, for `timeout-ms` × 3, prints {"left_group", "answered"} and waits.
// --seal yes: a real identity (a new Ed25519 key: its peer id) that seals this member's span, and sealed
// averages required of every aggregator (AllReduceOptions::sealWith); every member of the group must say so.
// --lying-aggregator KIND (with --seal yes and an aggregating role): an aggregator that answers each member
// with averages of its own making, different for each (member i's are all i + 1), under a valid seal of
// what that member got (KIND equivocating) or of other values (mis-sealed); prints {"lied_to": members
// answered} and waits. KIND wrong-mean: an aggregator that runs the round as it is but sends every member
// the same wrong mean (5 more in every tenth value) under a valid seal: only an audit finds it.
// --audit yes (with --seal yes): audits every other aggregator's span; prints "audits", what it found.
#include "core/collab/AllReduceRound.h"
#include "core/collab/PartHeader.h"
#include "core/collab/PartitionPlan.h"
#include "core/collab/SpanSeals.h"
#include "core/collab/TensorEncoding.h"
#include "core/collab/WeightBounds.h"
#include "core/net/LinkBandwidth.h"
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/net/ZapHandler.h"
#include "core/security/PeerIdentity.h"
#include "core/security/Sha256.h"
#include "tests/collab/AllReduceTestVector.h"
#include "tests/collab/MisbehavingMember.h"
#include "tests/collab/PeerArguments.h"

#include <QByteArray>
#include <QCryptographicHash>

#include <nlohmann/json.hpp>
#include <zmq.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <iostream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace sahaj;

using test::argument;

namespace {

// Stay until the test closes our input: the ROUTER (and a misbehaving member's DEALERs) must outlive
// every member's round.
// A member's test CURVE secret, from its id, and the public key that goes with it.
std::string testCurveSecret(const std::string& peerId) {
    return QCryptographicHash::hash(QByteArray("sahaj-test-curve-") + QByteArray::fromStdString(peerId),
                                    QCryptographicHash::Sha256)
        .toStdString();
}

std::string curvePublicOf(const std::string& secret) {
    char secretZ85[41];
    char publicZ85[41];
    zmq_z85_encode(secretZ85, reinterpret_cast<const std::uint8_t*>(secret.data()), secret.size());
    if (zmq_curve_public(publicZ85, secretZ85) != 0)
        throw std::runtime_error("libzmq has no CURVE support");
    std::string raw(32, '\0');
    zmq_z85_decode(reinterpret_cast<std::uint8_t*>(raw.data()), publicZ85);
    return raw;
}

void waitForInputToClose() {
    std::string line;
    while (std::getline(std::cin, line)) {
    }
}

int misbehave(const collab::GroupSpec& spec, const net::MessageCodec& codec,
              const net::SocketFactory& sockets, test::MisbehavingMember::Kind kind,
              const std::vector<float>& local, int timeoutMs) {
    const auto start = std::chrono::steady_clock::now();
    std::optional<test::MisbehavingMember> member;
    test::MisbehavingMember::Outcome outcome;
    try {
        member.emplace(spec, codec, sockets, kind);
        outcome = member->run(local, std::chrono::milliseconds(timeoutMs));
    } catch (const std::invalid_argument& e) {
        std::cerr << "sahaj-allreduce-peer: cannot misbehave: " << e.what() << std::endl;
        return 1;
    }
    std::cout
        << nlohmann::json{{"misbehaved", test::MisbehavingMember::nameOf(kind)},
                          {"parts_sent", outcome.partsSent},
                          {"parts_unsent", outcome.partsUnsent},
                          {"seconds",
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}}
               .dump()
        << std::endl;
    waitForInputToClose();
    return 0;
}

// --hijack: connections to every other aggregator that claim `victim`'s peer id as their routing id.
std::vector<zmq::socket_t> hijack(zmq::context_t& context, const collab::GroupSpec& spec,
                                  const std::string& self, const std::string& victim,
                                  const std::optional<net::SocketFactory::Curve>& keys) {
    std::vector<zmq::socket_t> sockets;
    for (std::size_t m = 0; m < spec.members.size(); ++m) {
        const collab::GroupMember& member = spec.members[m];
        if (member.peerId == self || member.peerId == victim || spec.spanCounts[m] == 0)
            continue;
        zmq::socket_t socket(context, zmq::socket_type::dealer);
        socket.set(zmq::sockopt::routing_id, zmq::buffer(victim));
        socket.set(zmq::sockopt::linger, 0);
        if (keys) {
            socket.set(zmq::sockopt::curve_serverkey, zmq::buffer(member.curveKey));
            socket.set(zmq::sockopt::curve_publickey, zmq::buffer(keys->publicKey));
            socket.set(zmq::sockopt::curve_secretkey, zmq::buffer(keys->secretKey));
        }
        socket.connect(member.endpoint);
        sockets.push_back(std::move(socket));
    }
    return sockets;
}

// The group of a member's next round at the same epoch, as the engine's state round follows its gradient
// round: this group id with its bytes flipped. Every peer's round takes it as its companion
// (AllReduceOptions::companionGroup), as the engine's rounds do.
std::string nextRoundGroup(std::string groupId) {
    for (char& byte : groupId)
        byte = static_cast<char>(~byte);
    return groupId;
}

// --next-round-after-ms: the next round's connections to every other aggregator, each sending a connection
// notice of the next round's group (nextRoundGroup) every 200 ms until `stop`; the frames that arrived on
// them.
int startNextRound(const collab::GroupSpec& spec, const net::MessageCodec& codec,
                   const net::SocketFactory& sockets, const std::string& self,
                   std::chrono::milliseconds after, const std::atomic<bool>& stop) {
    const auto begun = std::chrono::steady_clock::now();
    while (!stop && std::chrono::steady_clock::now() - begun < after)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::string nextGroup = nextRoundGroup(spec.groupId);
    std::vector<zmq::socket_t> next;
    for (std::size_t m = 0; m < spec.members.size(); ++m)
        if (spec.members[m].peerId != self && spec.spanCounts[m] > 0)
            next.push_back(sockets.connectDealer(spec.members[m].endpoint, spec.members[m].curveKey));
    int frames = 0;
    while (!stop) {
        for (zmq::socket_t& socket : next) {
            wire::Envelope envelope;
            envelope.mutable_member_connected()->set_group_id(nextGroup);
            envelope.mutable_member_connected()->set_epoch(spec.epoch);
            std::vector<zmq::message_t> out = codec.encode(std::move(envelope));
            net::MessageCodec::send(socket, out, nullptr, true);
            zmq::message_t frame;
            while (socket.recv(frame, zmq::recv_flags::dontwait))
                ++frames;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return frames;
}

// The next message on `router` within 100 ms, with the route of its connection; nullopt when none came.
std::optional<net::WireMessage> receiveOne(const net::MessageCodec& codec, zmq::socket_t& router) {
    zmq::message_t route;
    std::optional<std::vector<zmq::message_t>> frames =
        net::MessageCodec::receive(router, std::chrono::milliseconds(100), &route);
    if (!frames)
        return std::nullopt;
    net::WireMessage message = codec.decode(std::move(*frames));
    message.route = std::move(route);
    return message;
}

// --lying-aggregator: answers each member, at its first message, with every part of this aggregator's span
// holding its own index + 1, and a valid seal of those values (mis-sealed: of values one more).
int lieAsAggregator(const collab::GroupSpec& spec, const net::MessageCodec& codec, zmq::socket_t& router,
                    const security::PeerIdentity& identity, bool misSealed, int timeoutMs) {
    const int me = spec.indexOf(codec.peerId());
    const collab::PartitionPlan plan(spec.spanCounts, spec.vectorSize, spec.partElements);
    std::set<int> answered;
    const auto senders = std::count_if(spec.members.begin(), spec.members.end(),
                                       [](const collab::GroupMember& member) { return member.sends(); });
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(3 * timeoutMs);
    while (std::chrono::steady_clock::now() < until && static_cast<long>(answered.size()) < senders) {
        const std::optional<net::WireMessage> message = receiveOne(codec, router);
        if (!message)
            continue;
        const zmq::message_t& route = message->route;
        const int member = spec.indexOf(message->envelope.sender());
        if (member < 0 || member == me || !answered.insert(member).second)
            continue;
        security::Sha256 hash;
        for (std::int64_t p = 0; p < plan.partCount(me); ++p) {
            const collab::ElementRange range = plan.part(me, p);
            std::vector<float> values(static_cast<std::size_t>(range.size), static_cast<float>(member + 1));
            collab::TensorEncoding::roundTrip(values.data(), range.size, spec.encoding);
            std::vector<float> sealed = values;
            if (misSealed)
                for (float& value : sealed)
                    value += 1.0f;
            collab::SpanSeals::addValues(hash, sealed.data(), sealed.size());
            wire::Envelope envelope;
            wire::AveragedPart* part = envelope.mutable_averaged_part();
            collab::fillPartHeader(*part, spec, static_cast<std::size_t>(me), p, range);
            part->set_total_weight(1.0);
            part->set_contributors(1);
            std::vector<zmq::message_t> data;
            data.push_back(collab::TensorEncoding::encode(values.data(), range.size, spec.encoding));
            std::vector<zmq::message_t> out = codec.encode(std::move(envelope), std::move(data));
            net::MessageCodec::send(router, out, &route, true);
        }
        wire::Envelope envelope;
        *envelope.mutable_span_seal() =
            collab::SpanSeals::make(codec.runId(), spec, static_cast<std::uint32_t>(me), hash.result(),
                                    std::vector<double>(spec.members.size(), 1.0), identity);
        std::vector<zmq::message_t> out = codec.encode(std::move(envelope));
        net::MessageCodec::send(router, out, &route, true);
    }
    std::cout << nlohmann::json{{"lied_to", answered.size()}}.dump() << std::endl;
    waitForInputToClose();
    return 0;
}

// Answers the round's messages with PartFailure.left_group, as CollaborationLink answers members of a group
// it left.
int leaveGroup(const collab::GroupSpec& spec, const net::MessageCodec& codec, zmq::socket_t& router,
               const std::string& peerId, int timeoutMs) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(3 * timeoutMs);
    int answered = 0;
    while (std::chrono::steady_clock::now() < until) {
        std::optional<net::WireMessage> message = receiveOne(codec, router);
        if (!message || !collab::AllReduceRound::isRoundMessage(message->envelope, spec.groupId))
            continue;
        wire::Envelope reply;
        wire::PartFailure* failure = reply.mutable_part_failure();
        failure->set_group_id(spec.groupId);
        failure->set_epoch(spec.epoch);
        failure->set_span(static_cast<std::uint32_t>(spec.indexOf(peerId)));
        failure->set_reason("left the group before its round");
        failure->set_left_group(true);
        std::vector<zmq::message_t> out = codec.encode(std::move(reply));
        net::MessageCodec::trySend(router, out, &message->route, true);
        ++answered;
    }
    std::cout << nlohmann::json{{"left_group", true}, {"answered", answered}}.dump() << std::endl;
    waitForInputToClose();
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string role = argument(argc, argv, "role", "node");
    const int index = std::stoi(argument(argc, argv, "index", "0"));
    const std::int64_t size = std::stoll(argument(argc, argv, "size", "1000"));
    const double upload = std::stod(argument(argc, argv, "upload", "0"));
    const double download = std::stod(argument(argc, argv, "download", "0"));
    const int timeoutMs = std::stoi(argument(argc, argv, "timeout-ms", "5000"));
    std::optional<test::MisbehavingMember::Kind> misbehaviour;
    if (const std::string kind = argument(argc, argv, "misbehave", ""); !kind.empty()) {
        try {
            misbehaviour = test::MisbehavingMember::kindFromName(kind);
        } catch (const std::invalid_argument& e) {
            std::cerr << "sahaj-allreduce-peer: --misbehave: " << e.what() << std::endl;
            return 2;
        }
    }

    // A fixed id per index: the tests need stable ids, not secret ones; a sealing member's id is its key.
    const bool seal = argument(argc, argv, "seal", "no") == "yes";
    const security::PeerIdentity identity = security::PeerIdentity::generate();
    const std::string peerId =
        seal ? identity.id().bytes().toStdString() : std::string(32, static_cast<char>('A' + index));
    zmq::context_t context;
    const bool curve = argument(argc, argv, "curve", "no") == "yes";
    const std::string domain = net::ZapHandler::runDomain("test-run");
    std::unique_ptr<net::ZapHandler> zap;
    std::optional<net::SocketFactory::Curve> keys;
    if (curve) {
        zap = std::make_unique<net::ZapHandler>(context, domain);
        const std::string secret = testCurveSecret(peerId);
        keys = net::SocketFactory::Curve{curvePublicOf(secret), secret, domain};
    }
    const net::SocketFactory sockets(context, peerId, {}, keys);
    net::MessageCodec codec("test-run", peerId);
    // Under CURVE, as in a run: senders must be the authenticated peer, with a timestamp within the replay
    // window of this clock (nobody is banned here).
    if (curve)
        codec.authenticateSenders([](const std::string&) { return false; });
    zmq::socket_t router;
    std::string endpoint;
    if (role != "client") {
        router = sockets.bindRouter("tcp://" + argument(argc, argv, "bind", "127.0.0.1") + ":0");
        endpoint = net::SocketFactory::boundEndpoint(router);
    }
    std::cout << nlohmann::json{{"peer", QByteArray::fromStdString(peerId).toHex().toStdString()},
                                {"endpoint", endpoint}}
                     .dump()
              << std::endl;

    std::string line;
    if (!std::getline(std::cin, line))
        return 1;
    wire::GroupBegin begin;
    const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(line));
    if (!begin.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        return 2;

    collab::GroupSpec spec = collab::GroupSpec::fromWire(begin);
    if (curve)
        for (collab::GroupMember& member : spec.members) {
            member.curveKey = curvePublicOf(testCurveSecret(member.peerId));
            zap->admit(member.curveKey, member.peerId,
                       std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                               .count() +
                           3'600'000);
        }
    collab::AllReduceOptions options;
    options.senderTimeout = std::chrono::milliseconds(timeoutMs);
    options.aggregatorTimeout = std::chrono::milliseconds(2 * timeoutMs);
    // --deadline-ms N: the whole round's deadline (AllReduceOptions::deadline).
    if (const std::string deadline = argument(argc, argv, "deadline-ms", ""); !deadline.empty())
        options.deadline = std::chrono::milliseconds(std::stoi(deadline));
    options.companionGroup = nextRoundGroup(spec.groupId);
    options.uploadBytesPerSecond = upload;
    options.downloadBytesPerSecond = download;
    options.connectWait =
        std::chrono::milliseconds(std::stoi(argument(argc, argv, "connect-wait-ms", "1000")));
    // --pace yes: the round's connections are paced by the engine's rule (net::LinkBandwidth) for a link
    // known to run at the bandwidth this member declares in the group (the benchmark declares each link's
    // real rate).
    if (argument(argc, argv, "pace", "no") == "yes") {
        const collab::GroupMember& self = spec.members[static_cast<std::size_t>(spec.indexOf(peerId))];
        const double rate = self.bandwidth * collab::TensorEncoding::bytesPerValue(spec.encoding);
        net::LinkBandwidth link;
        link.setCaps(rate, rate);
        options.pacingBytesPerSecond = link.pacingBytesPerSecond();
    }
    std::vector<float> local;
    if (role != "aux")
        local = test::allReduceTestVector(static_cast<std::uint64_t>(index) + 1, size);
    // --scale S: send S times the test vector (an attacker, with S = -1000); --centered-clip: aggregate
    // with CenteredClip instead of the mean.
    const float scale = std::stof(argument(argc, argv, "scale", "1"));
    for (float& value : local)
        value *= scale;
    if (argument(argc, argv, "centered-clip", "no") == "yes")
        options.centeredClip = collab::CenteredClipOptions{};
    // --bound-weights yes: parts may carry at most what their senders declared and trained since
    // (WeightBounds), each member's record saying its declaration at 1 sample/s, now: without any rate there
    // is no bound.
    if (argument(argc, argv, "bound-weights", "no") == "yes") {
        const auto now = std::chrono::system_clock::now();
        std::vector<collab::PeerProgress> records;
        for (const collab::GroupMember& member : spec.members) {
            collab::PeerProgress record;
            record.peerId = member.peerId;
            record.epoch = spec.epoch;
            record.samplesAccumulated = static_cast<std::uint64_t>(member.weight);
            record.samplesPerSecond = 1.0;
            record.measuredAt = std::chrono::time_point_cast<std::chrono::milliseconds>(now);
            records.push_back(record);
        }
        options.maxWeights = collab::WeightBounds::of(spec, records, now);
    }
    // --floor F: no value of the vector may be below F (a state round's floor on its second moments).
    if (const std::string floor = argument(argc, argv, "floor", ""); !floor.empty())
        options.floors.push_back({collab::ElementRange{0, size}, std::stof(floor), "a value"});
    if (seal)
        options.sealWith = &identity;
    // --audit yes (with --seal yes): audit the span of every other aggregator (AllReduceOptions::audited).
    if (argument(argc, argv, "audit", "no") == "yes")
        for (const collab::GroupMember& member : spec.members)
            if (member.peerId != peerId)
                options.audited.push_back(member.peerId);
    if (const std::string lie = argument(argc, argv, "lying-aggregator", ""); !lie.empty()) {
        if (lie ==
            "wrong-mean") // the round as it is, but every member is sent 5 more in a tenth of the values
            options.alterReplies = [](std::size_t, float* values, std::int64_t count) {
                for (std::int64_t i = 0; i < count; i += 10)
                    values[i] += 5.0f;
            };
        else if (lie != "equivocating" && lie != "mis-sealed") {
            std::cerr << "sahaj-allreduce-peer: --lying-aggregator: equivocating, mis-sealed or wrong-mean"
                      << std::endl;
            return 2;
        } else {
            return lieAsAggregator(spec, codec, router, identity, lie == "mis-sealed", timeoutMs);
        }
    }
    if (misbehaviour)
        return misbehave(spec, codec, sockets, *misbehaviour, local, timeoutMs);
    if (argument(argc, argv, "left-group", "no") == "yes")
        return leaveGroup(spec, codec, router, peerId, timeoutMs);
    std::vector<zmq::socket_t> hijacks;
    if (const std::string victim = argument(argc, argv, "hijack", ""); !victim.empty()) {
        // After the victim's own connections are up, as an attacker would come.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        hijacks =
            hijack(context, spec, peerId, std::string(32, static_cast<char>('A' + std::stoi(victim))), keys);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::stoi(argument(argc, argv, "start-delay-ms", "0"))));
    std::atomic<bool> roundOver = false;
    std::future<int> nextRound;
    if (const std::string after = argument(argc, argv, "next-round-after-ms", ""); !after.empty())
        nextRound = std::async(std::launch::async, startNextRound, std::cref(spec), std::cref(codec),
                               std::cref(sockets), std::cref(peerId),
                               std::chrono::milliseconds(std::stoi(after)), std::cref(roundOver));
    collab::AllReduceRound round(spec, codec, sockets, role == "client" ? nullptr : &router, options);
    const collab::AllReduceResult result = round.run(std::move(local));
    roundOver = true;
    const int nextRoundFrames = nextRound.valid() ? nextRound.get() : 0;

    const std::string out = argument(argc, argv, "out", "");
    if (!out.empty()) {
        std::FILE* file = std::fopen(out.c_str(), "wb");
        if (!file || std::fwrite(result.values.data(), sizeof(float), result.values.size(), file) !=
                         result.values.size())
            return 3;
        std::fclose(file);
    }
    const QByteArray hash =
        QCryptographicHash::hash(QByteArrayView(reinterpret_cast<const char*>(result.values.data()),
                                                static_cast<qsizetype>(result.values.size() * sizeof(float))),
                                 QCryptographicHash::Sha256);
    nlohmann::json excluded = nlohmann::json::array();
    for (const std::string& peer : result.excludedSenders)
        excluded.push_back(QByteArray::fromStdString(peer).toHex().toStdString());
    nlohmann::json unconnected = nlohmann::json::array();
    for (const std::string& peer : result.unconnected)
        unconnected.push_back(QByteArray::fromStdString(peer).toHex().toStdString());
    nlohmann::json left = nlohmann::json::array();
    for (const std::string& peer : result.leftBeforeRound)
        left.push_back(QByteArray::fromStdString(peer).toHex().toStdString());
    int hijackedFrames = 0;
    for (zmq::socket_t& socket : hijacks) {
        zmq::message_t frame;
        while (socket.recv(frame, zmq::recv_flags::dontwait))
            ++hijackedFrames;
    }
    nlohmann::json senderRates = nlohmann::json::object(); // values per second, as this aggregator timed
    for (const auto& [peer, rate] : result.senderRates)
        senderRates[QByteArray::fromStdString(peer).toHex().toStdString()] = rate;
    nlohmann::json violators = nlohmann::json::array(); // whom a peer would ban
    for (const auto& [peer, offence] : result.violators)
        violators.push_back(QByteArray::fromStdString(peer).toHex().toStdString());
    std::cout << nlohmann::json{{"sha256", hash.toHex().toStdString()},
                                {"complete", result.complete()},
                                {"span_averaged", result.spanAveraged},
                                {"excluded", excluded},
                                {"violations", result.violations},
                                {"violators", violators},
                                {"audits", result.audits},
                                {"plans_differ", result.plansDiffer()},
                                {"paced_connections", result.pacedConnections},
                                {"bytes_sent", result.bytesSent},
                                {"bytes_received", result.bytesReceived},
                                {"seconds", result.seconds},
                                {"total_weight", result.totalWeight},
                                {"unconnected", unconnected},
                                {"left_before_round", left},
                                {"hijacked_frames", hijackedFrames},
                                {"next_round_frames", nextRoundFrames},
                                {"sender_rates", senderRates}}
                     .dump()
              << std::endl;
    if (argument(argc, argv, "leave", "no") != "yes")
        waitForInputToClose();
    return 0;
}
