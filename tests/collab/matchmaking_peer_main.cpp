// sahaj-matchmaking-peer: one peer that forms a group for epoch 1 and averages in it, as its own process,
// for the multi-process matchmaking test. It joins the DHT through --bootstrap HOST:PORT with a fresh
// identity, binds its ROUTER unless --role is client, runs Matchmaking::formGroup for run --run (--schema
// TEXT: its sha256 is the schema hash; --weight, --bandwidth; --gather-ms, --min-gather-ms, --size), then the
// all-reduce on the formed group with its test vector (--seed), and prints one JSON line: {"peer",
// "group", "members", "index", "leader", "sha256", "complete", "problems"}. A group of one keeps its own
// values (no round). Then it waits for standard input to close, so that its ROUTER serves late members.
//
// With --attack KIND (never-begins, tiny-parts, crowd) it is a HostileLeader instead: it prints {"peer"}
// and leads falsely for epoch 1 until standard input closes.
//
// Once its DHT has connected and its ROUTER is bound it prints "ready" and waits for a line on standard
// input before it matches: starting a process and its DHT takes seconds on a loaded machine, and the test
// decides when each peer begins to match, not the loader.
#include "core/collab/AllReduceRound.h"
#include "core/collab/Matchmaking.h"
#include "core/collab/TensorEncoding.h"
#include "core/dht/DhtNode.h"
#include "core/dht/DhtNodeOptions.h"
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/security/PeerIdentity.h"
#include "tests/collab/AllReduceTestVector.h"
#include "tests/collab/HostileLeader.h"
#include "tests/collab/PeerArguments.h"

#include <QByteArray>
#include <QCryptographicHash>

#include <nlohmann/json.hpp>

#include <atomic>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

using namespace sahaj;
using namespace std::chrono_literals;

namespace {

using test::argument;

std::string hex(const std::string& bytes) {
    return QByteArray::fromStdString(bytes).toHex().toStdString();
}

} // namespace

int main(int argc, char** argv) {
    const std::string role = argument(argc, argv, "role", "node");
    const std::int64_t size = std::stoll(argument(argc, argv, "size", "100003"));
    const std::uint64_t seed = std::stoull(argument(argc, argv, "seed", "1"));
    const std::string runId = argument(argc, argv, "run", "matchmaking-test");

    const auto identity = std::make_shared<const security::PeerIdentity>(security::PeerIdentity::generate());
    const std::string peerId = identity->id().bytes().toStdString();
    sahaj::dht::DhtNodeOptions dhtOptions;
    dhtOptions.bootstrap = {QString::fromStdString(argument(argc, argv, "bootstrap", ""))};
    dhtOptions.identity = identity;
    sahaj::dht::DhtNode dhtNode(dhtOptions);
    for (int i = 0; i < 600 && dhtNode.connectedNodeCount() == 0; ++i)
        std::this_thread::sleep_for(100ms);
    if (dhtNode.connectedNodeCount() == 0) {
        std::cerr << "sahaj-matchmaking-peer: the DHT did not connect within 60 s" << std::endl;
        return 1;
    }

    zmq::context_t context;
    const net::SocketFactory sockets(context, peerId);
    const net::MessageCodec codec(runId, peerId);
    zmq::socket_t router;
    if (role != "client")
        router = sockets.bindRouter("tcp://127.0.0.1:0");
    std::cout << "ready" << std::endl;
    std::string go;
    if (!std::getline(std::cin, go)) {
        std::cerr << "sahaj-matchmaking-peer: standard input closed before the start" << std::endl;
        return 1;
    }

    collab::MatchmakingOptions options;
    options.schemaHash =
        QCryptographicHash::hash(QByteArray::fromStdString(argument(argc, argv, "schema", "A")),
                                 QCryptographicHash::Sha256)
            .toStdString();
    options.gatherTime = std::chrono::milliseconds(std::stoi(argument(argc, argv, "gather-ms", "10000")));
    options.minGatherTime =
        std::chrono::milliseconds(std::stoi(argument(argc, argv, "min-gather-ms", "10000")));
    options.deadline = 3 * options.gatherTime + 20s;
    options.encoding = collab::TensorEncoding::fp16();
    options.vectorSize = size;
    options.partElements = 65536;
    const std::string attack = argument(argc, argv, "attack", "");
    if (!attack.empty()) {
        test::HostileLeader liar(
            dhtNode, codec, router, test::HostileLeader::kindFromName(attack),
            {options.schemaHash, options.encoding, options.vectorSize, options.partElements});
        std::cout << nlohmann::json{{"peer", hex(peerId)}}.dump() << std::endl;
        std::atomic<bool> stop = false;
        std::thread reader([&] {
            std::string line;
            while (std::getline(std::cin, line)) {
            }
            stop = true;
        });
        liar.run(1, stop);
        reader.join();
        return 0;
    }
    collab::GroupMember self;
    self.role = role == "client" ? wire::ROLE_CLIENT : role == "aux" ? wire::ROLE_AUXILIARY : wire::ROLE_NODE;
    self.bandwidth = std::stod(argument(argc, argv, "bandwidth", "1e6"));
    self.weight = role == "aux" ? 0.0 : std::stod(argument(argc, argv, "weight", "1"));
    collab::Matchmaking matchmaking(dhtNode, codec, sockets, role == "client" ? nullptr : &router, options);
    // Each phase change goes to stderr (the test forwards it), so that a failed run shows how it went.
    const auto started = std::chrono::steady_clock::now();
    matchmaking.onTransition([&](const std::string& line) {
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        std::cerr << "[" << hex(peerId).substr(0, 8) << " +" << ms.count() << " ms] " << line << std::endl;
    });
    collab::MatchmakingResult formed = matchmaking.formGroup(1, self);

    std::vector<float> values;
    if (self.role != wire::ROLE_AUXILIARY)
        values = test::allReduceTestVector(seed, size);
    bool complete = true; // a group of one averages trivially
    if (formed.group.members.size() > 1) {
        collab::AllReduceOptions roundOptions;
        roundOptions.senderTimeout = 10s;
        roundOptions.aggregatorTimeout = 20s;
        collab::AllReduceRound round(formed.group, codec, sockets, role == "client" ? nullptr : &router,
                                     roundOptions);
        collab::AllReduceResult result = round.run(std::move(values), std::move(formed.early));
        values = std::move(result.values);
        complete = result.complete();
    }

    const QByteArray hash =
        QCryptographicHash::hash(QByteArrayView(reinterpret_cast<const char*>(values.data()),
                                                static_cast<qsizetype>(values.size() * sizeof(float))),
                                 QCryptographicHash::Sha256);
    nlohmann::json members = nlohmann::json::array();
    for (const collab::GroupMember& member : formed.group.members)
        members.push_back(hex(member.peerId));
    std::cout << nlohmann::json{{"peer", hex(peerId)},     {"group", hex(formed.group.groupId)},
                                {"members", members},      {"index", formed.group.indexOf(peerId)},
                                {"leader", formed.leader}, {"sha256", hash.toHex().toStdString()},
                                {"complete", complete},    {"problems", formed.problems}}
                     .dump()
              << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
    }
    return 0;
}
