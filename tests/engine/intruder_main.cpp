// sahaj-intruder: a peer process that tries to take part in a run with whatever credential it is given,
// for tst_admission_processes. It publishes its own peer record in the run's DHT (signed by its identity,
// carrying --token-file's bytes as its credential, or none), then opens a CURVE connection to the
// coordinator's ROUTER and asks to join a group, and reports what got through:
//
//   sahaj-intruder --join FILE --coordinator HOST:PORT --identity DIR [--token-file FILE] [--replay]
//
// One JSON line on stdout:
//   control_visible  the coordinator's own record is visible to a reader of the run (the check works);
//   visible          this peer's record is visible to such a reader (it was admitted to publish);
//   answered         the coordinator answered its join request (it was admitted to connect);
//   with --replay (meaningful with a valid token): it publishes record A, then a newer B, then A's exact
//   bytes again, and a second identity publishes a record carrying the coordinator's token:
//   replay_ignored        the reader still sees B;
//   stolen_token_visible  the record with someone else's token is visible.
// Readers here are a DhtNode with the run's admission rule, the same code every peer reads with.
#include "core/collab/PeerBoard.h"
#include "core/collab/ProgressBoard.h"
#include "core/dht/DhtNode.h"
#include "core/dht/DhtNodeOptions.h"
#include "core/dht/HostPort.h"
#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordRules.h"
#include "core/dht/RecordValueType.h"
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/net/ZapHandler.h"
#include "core/run/JoinFile.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <opendht/dhtrunner.h>
#include <opendht/network_utils.h>

#include <iostream>
#include <optional>
#include <thread>

namespace sdht = sahaj::dht; // `dht` alone is OpenDHT's namespace
using namespace sahaj;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

// Publishes exact envelope bytes, as a hostile peer can: no DhtNode checks on the way out.
class RawPublisher {
public:
    explicit RawPublisher(const sdht::HostPort& bootstrap) {
        ::dht::DhtRunner::Config config;
        config.dht_config.node_config.network = sdht::DhtNodeOptions::kSahajNetworkId;
        ::dht::DhtRunner::Context context;
        context.sock = std::make_unique<::dht::net::UdpSocket>(
            ::dht::SockAddr::resolve("127.0.0.1", "0").front(), ::dht::SockAddr{});
        runner_.run(config, std::move(context));
        runner_.bootstrap(bootstrap.host.toStdString(), std::to_string(bootstrap.port));
    }
    ~RawPublisher() { runner_.join(); }

    bool connected() { return runner_.getNodesStats(AF_INET).getKnownNodes() > 0; }

    // A record of `owner` under `key`, issued `age` ago, with `credential`; returns its bytes.
    QByteArray publish(const security::PeerIdentity& owner, const QString& key, const QByteArray& payload,
                       const QByteArray& credential, std::chrono::seconds age = 0s) {
        const ::dht::InfoHash hash = ::dht::InfoHash::get(key.toUtf8().toStdString());
        const QByteArrayView keyHash(reinterpret_cast<const char*>(hash.data()),
                                     static_cast<qsizetype>(hash.size()));
        const auto issued = sdht::RecordEnvelope::Clock::now() - age;
        const QByteArray bytes =
            sdht::RecordEnvelope::sign(owner, keyHash, issued, issued + 120s, payload, credential).encode();
        putBytes(key, sdht::RecordRules::valueIdFor(owner.id()), bytes);
        return bytes;
    }

    void putBytes(const QString& key, std::uint64_t valueId, const QByteArray& bytes) {
        runner_.put(::dht::InfoHash::get(key.toUtf8().toStdString()),
                    std::make_shared<::dht::Value>(sdht::RecordValueType::kId,
                                                   reinterpret_cast<const uint8_t*>(bytes.data()),
                                                   static_cast<size_t>(bytes.size()), valueId));
    }

private:
    ::dht::DhtRunner runner_;
};

template <typename Condition>
bool waitFor(Condition condition, std::chrono::milliseconds limit) {
    const auto until = Clock::now() + limit;
    while (Clock::now() < until) {
        if (condition())
            return true;
        std::this_thread::sleep_for(250ms);
    }
    return condition();
}

QByteArray announcement(std::uint64_t epoch) {
    collab::PeerAnnouncement peer;
    peer.role = wire::ROLE_NODE;
    peer.endpoint = "tcp://127.0.0.1:9";
    peer.bandwidth = 1e12; // a claim any aggregator would love
    peer.stateDonor = true;
    peer.epoch = epoch;
    peer.version = "intruder";
    return collab::PeerBoard::encode(peer);
}

std::optional<collab::PeerAnnouncement> find(collab::PeerBoard& board, const security::PeerId& id) {
    for (const collab::PeerAnnouncement& peer : board.fetch(3s))
        if (peer.peerId == id.bytes().toStdString())
            return peer;
    return std::nullopt;
}

// Connects to the coordinator's ROUTER with this peer's CURVE key and asks to join; true when any
// message comes back within the limit.
bool askToJoin(const run::RunManifest& manifest, const security::PeerIdentity& identity,
               const security::CurveKeyPair& curve, const collab::PeerAnnouncement& coordinator) {
    zmq::context_t context;
    const std::string id = identity.id().bytes().toStdString();
    const net::SocketFactory sockets(
        context, id, {},
        net::SocketFactory::Curve{curve.publicKey().toStdString(), curve.secretKey().toStdString(),
                                  net::ZapHandler::runDomain(manifest.runId.toStdString())});
    zmq::socket_t dealer = sockets.connectDealer(coordinator.endpoint, coordinator.curveKey);
    const net::MessageCodec codec(manifest.runId.toStdString(), id);
    wire::Envelope envelope;
    envelope.set_request_id(1);
    wire::JoinRequest* request = envelope.mutable_join_request();
    request->set_epoch(0);
    request->set_schema_hash(std::string(32, 'x'));
    request->mutable_member()->set_peer_id(id);
    request->mutable_member()->set_role(wire::ROLE_NODE);
    request->mutable_member()->set_endpoint("tcp://127.0.0.1:9");
    request->mutable_member()->set_bandwidth(1.0);
    request->set_expiration_ms(static_cast<std::uint64_t>(QDateTime::currentMSecsSinceEpoch()) + 60000);
    std::vector<zmq::message_t> frames = codec.encode(std::move(envelope));
    const auto until = Clock::now() + 8s;
    // ZMQ_IMMEDIATE: nothing is queued until the handshake succeeds, which a refused key never does.
    while (!net::MessageCodec::send(dealer, frames, nullptr, true)) {
        if (Clock::now() >= until)
            return false;
        std::this_thread::sleep_for(50ms);
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    return net::MessageCodec::receive(dealer, std::max(left, 1000ms)).has_value();
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({{"join", "The run's join file.", "FILE"},
                       {"coordinator", "The coordinator's DHT address, HOST:PORT.", "ADDR"},
                       {"identity", "Folder of this peer's keys (created when missing).", "DIR"},
                       {"token-file", "The credential to carry (none: no token at all).", "FILE"},
                       {"replay", "Also try a replayed record and a stolen token."}});
    parser.process(app);
    if (!parser.isSet("join") || !parser.isSet("coordinator") || !parser.isSet("identity")) {
        std::cerr << "sahaj-intruder: --join, --coordinator and --identity are required\n";
        return 2;
    }
    const run::RunManifest manifest = run::JoinFile::readRun(parser.value("join"), true, {});
    const auto identity = std::make_shared<const security::PeerIdentity>(
        security::PeerIdentity::loadOrCreate(parser.value("identity")));
    const security::CurveKeyPair curve = security::CurveKeyPair::loadOrCreate(parser.value("identity"));
    QByteArray token;
    if (parser.isSet("token-file")) {
        QFile file(parser.value("token-file"));
        if (!file.open(QIODevice::ReadOnly))
            return 2;
        token = file.readAll();
    }
    const sdht::HostPort bootstrap = sdht::HostPort::parse(parser.value("coordinator"));
    const QString peersKey = QStringLiteral("sahaj/%1/peers").arg(manifest.runId);

    sdht::DhtNodeOptions readerOptions;
    readerOptions.bootstrap = {parser.value("coordinator")};
    readerOptions.admission =
        sdht::RecordAdmission{security::PeerId::fromHex(manifest.organiser), manifest.runId};
    sdht::DhtNode reader(readerOptions);
    collab::PeerBoard board(reader, manifest.runId);
    RawPublisher publisher(bootstrap);
    waitFor([&] { return reader.connectedNodeCount() > 0 && publisher.connected(); }, 60s);

    // The coordinator's record: whom to connect to, and the proof that reading works at all.
    std::optional<collab::PeerAnnouncement> coordinator;
    waitFor(
        [&] {
            for (const collab::PeerAnnouncement& peer : board.fetch(3s))
                if (peer.coordinator)
                    coordinator = peer;
            return coordinator.has_value();
        },
        60s);

    QJsonObject result{{"control_visible", coordinator.has_value()}};
    const QByteArray first = publisher.publish(*identity, peersKey, announcement(1), token, 2s);
    // Progress, as every training peer publishes it (and every peer reads it, which is how the
    // coordinator's ZAP handler learns the keys it may admit).
    collab::PeerProgress progress;
    progress.peerId = identity->id().bytes().toStdString();
    progress.measuredAt =
        std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    progress.expiresAt = progress.measuredAt + 120s;
    publisher.publish(*identity, QStringLiteral("sahaj/%1/progress").arg(manifest.runId),
                      collab::ProgressBoard::encode(progress), token);
    result.insert("visible", waitFor([&] { return find(board, identity->id()).has_value(); }, 10s));
    result.insert("answered", coordinator && askToJoin(manifest, *identity, curve, *coordinator));

    if (parser.isSet("replay") && coordinator) {
        publisher.publish(*identity, peersKey, announcement(2), token);
        waitFor([&] { return find(board, identity->id()).value_or(collab::PeerAnnouncement{}).epoch == 2; },
                10s);
        publisher.putBytes(peersKey, sdht::RecordRules::valueIdFor(identity->id()),
                           first); // the old one again
        std::this_thread::sleep_for(3s);
        const auto seen = find(board, identity->id());
        result.insert("replay_ignored", seen && seen->epoch == 2);

        // The coordinator's token is public (it travels in its records): a thief can copy it, not use it.
        QByteArray stolen;
        for (const sdht::DhtRecord& record : reader.get(peersKey, 3s))
            if (record.token && record.token->role() == security::AccessToken::Role::Coordinator)
                stolen = record.token->toBytes();
        const security::PeerIdentity thief = security::PeerIdentity::generate();
        publisher.publish(thief, peersKey, announcement(3), stolen);
        result.insert("stolen_token_visible",
                      stolen.isEmpty() || waitFor([&] { return find(board, thief.id()).has_value(); }, 8s));
    }
    result.insert("rejected_by_reader", static_cast<qint64>(reader.rejectedRecords()));
    std::cout << QJsonDocument(result).toJson(QJsonDocument::Compact).toStdString() << std::endl;
    return 0;
}
