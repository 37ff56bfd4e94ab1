// sahaj-dht-peer: a test-only DHT peer process for tst_dht_network.
//
//   sahaj-dht-peer --bootstrap HOST:PORT --key KEY --payload TEXT --ttl SECONDS
//       Starts a DhtNode with a fresh identity, waits until it is connected, puts TEXT under KEY, then
//       prints what it sees under KEY as JSON lines on stdout until stdin closes:
//         {"event":"ready","id":HEX,"port":N}                  once, after the first put
//         {"event":"records","records":[{"owner":HEX,"payload":TEXT}...],"rejected":N}  every poll (get)
//         {"event":"listened","owner":HEX,"payload":TEXT}      each record the listener delivers
//       Reads commands on stdin, one per line: "put TEXT SECONDS" replaces its record.
//
//   sahaj-dht-peer --forge --bootstrap HOST:PORT --key KEY --victim HEX
//       An attacker on a bare OpenDHT node (no Sahaj storage policies) that publishes under KEY: a record
//       claiming to be the victim's, in the victim's slot, signed by another key ("forged-owner"); a
//       record of its own with a broken signature ("forged-signature"); and bytes that are no record.
//       Prints {"event":"forged"} and waits for stdin to close.
//
//   sahaj-dht-peer --flood-keys N --bootstrap HOST:PORT --key KEY
//       A Sahaj node with a fresh identity that publishes a valid record under each of N keys (KEY/0,
//       KEY/1, ...), waits until the puts are done, prints {"event":"flooded"} and waits for stdin to close.
//
//   sahaj-dht-peer --flood-foreign N --bootstrap HOST:PORT --key KEY
//       A bare OpenDHT node that puts N values of OpenDHT's own user-data type, 60000 bytes each, under
//       KEY/0, KEY/1, ...; then as --flood-keys.
//
// Exit status: 0 on stdin close, 1 on a runtime failure, 2 on bad arguments (message on stderr).

#include "core/dht/DhtNode.h"
#include "core/dht/DhtNodeOptions.h"
#include "core/dht/HostPort.h"
#include "core/dht/OpenDhtBytes.h"
#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordRules.h"
#include "core/dht/RecordValueType.h"
#include "core/security/PeerIdentity.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <opendht/dhtrunner.h>
#include <opendht/network_utils.h>

#include <atomic>
#include <deque>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace sdht = sahaj::dht; // `dht` alone is OpenDHT's namespace
namespace security = sahaj::security;
using namespace std::chrono_literals;

namespace {

// JSON lines from several threads (the main loop and OpenDHT's listener callbacks), whole lines each.
class JsonLines {
public:
    void print(const QJsonObject& object) {
        const QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
        std::lock_guard lock(mutex_);
        std::cout << line.toStdString() << std::endl;
    }

private:
    std::mutex mutex_;
};

// Lines from stdin, read on their own thread so the main loop can poll; `closed` once stdin ends.
class StdinLines {
public:
    StdinLines()
        : reader_([this] {
              std::string line;
              while (std::getline(std::cin, line)) {
                  std::lock_guard lock(mutex_);
                  lines_.push_back(QString::fromStdString(line));
              }
              closed_ = true;
          }) {}
    ~StdinLines() { reader_.detach(); } // blocked in getline until stdin closes; the process is ending

    std::optional<QString> next() {
        std::lock_guard lock(mutex_);
        if (lines_.empty())
            return std::nullopt;
        QString line = lines_.front();
        lines_.pop_front();
        return line;
    }
    bool closed() const { return closed_; }

private:
    std::mutex mutex_;
    std::deque<QString> lines_;
    std::atomic<bool> closed_{false};
    std::thread reader_;
};

QJsonObject recordJson(const sdht::DhtRecord& record) {
    return {{"owner", record.owner.toHex()}, {"payload", QString::fromUtf8(record.payload)}};
}

template <typename Connected>
void waitUntilConnected(Connected connected) {
    for (int i = 0; i < 600 && !connected(); ++i)
        std::this_thread::sleep_for(100ms);
    if (!connected())
        throw std::runtime_error("no DHT node answered within 60 s");
}

int runPeer(const QCommandLineParser& arguments) {
    sdht::DhtNodeOptions options;
    options.bootstrap = QStringList({arguments.value("bootstrap")});
    options.identity = std::make_shared<const security::PeerIdentity>(security::PeerIdentity::generate());
    const QString key = arguments.value("key");
    JsonLines out; // before the node: its listener prints until the node is gone
    sdht::DhtNode node(options);
    waitUntilConnected([&] { return node.connectedNodeCount() > 0; });
    node.put(key, arguments.value("payload").toUtf8(), std::chrono::seconds(arguments.value("ttl").toInt()));

    out.print({{"event", "ready"}, {"id", options.identity->id().toHex()}, {"port", node.port()}});
    node.listen(key, [&out](const sdht::DhtRecord& record) {
        QJsonObject event = recordJson(record);
        event["event"] = "listened";
        out.print(event);
    });
    StdinLines commands;
    while (!commands.closed()) {
        while (auto command = commands.next()) {
            const QStringList words = command->split(' ', Qt::SkipEmptyParts);
            if (words.size() == 3 && words[0] == "put")
                node.put(key, words[1].toUtf8(), std::chrono::seconds(words[2].toInt()));
            else
                std::cerr << "sahaj-dht-peer: unknown command '" << command->toStdString() << "'"
                          << std::endl;
        }
        QJsonArray records;
        for (const sdht::DhtRecord& record : node.get(key, 3s))
            records.append(recordJson(record));
        out.print({{"event", "records"},
                   {"records", records},
                   {"rejected", static_cast<qint64>(node.rejectedRecords())}});
        std::this_thread::sleep_for(300ms);
    }
    return 0;
}

void putRaw(::dht::DhtRunner& runner, const ::dht::InfoHash& key, std::uint64_t valueId,
            const QByteArray& bytes) {
    runner.put(key, std::make_shared<::dht::Value>(sdht::RecordValueType::kId,
                                                   reinterpret_cast<const uint8_t*>(bytes.data()),
                                                   static_cast<size_t>(bytes.size()), valueId));
}

// An attacker's last duty: it says what it did, then waits for the test to close its stdin.
void reportAndWait(const QJsonObject& event) {
    JsonLines out;
    out.print(event);
    StdinLines lines;
    while (!lines.closed())
        std::this_thread::sleep_for(100ms);
}

// A bare OpenDHT node on loopback in Sahaj's network, with none of Sahaj's storage policies: an attacker's.
void startBareNode(::dht::DhtRunner& runner, const sdht::HostPort& bootstrap) {
    ::dht::DhtRunner::Config config;
    config.dht_config.node_config.network = sdht::DhtNodeOptions::kSahajNetworkId;
    ::dht::DhtRunner::Context context;
    context.sock = std::make_unique<::dht::net::UdpSocket>(::dht::SockAddr::resolve("127.0.0.1", "0").front(),
                                                           ::dht::SockAddr{});
    runner.run(config, std::move(context));
    runner.bootstrap(bootstrap.host.toStdString(), std::to_string(bootstrap.port));
    waitUntilConnected([&] { return runner.getNodesStats(AF_INET).getKnownNodes() > 0; });
}

int runForger(const QCommandLineParser& arguments) {
    const security::PeerId victim = security::PeerId::fromHex(arguments.value("victim"));
    const sdht::HostPort bootstrap = sdht::HostPort::parse(arguments.value("bootstrap"));
    const ::dht::InfoHash key = ::dht::InfoHash::get(arguments.value("key").toUtf8().toStdString());
    const QByteArrayView keyHash(reinterpret_cast<const char*>(key.data()),
                                 static_cast<qsizetype>(key.size()));

    ::dht::DhtRunner runner;
    startBareNode(runner, bootstrap);

    const security::PeerIdentity forger = security::PeerIdentity::generate();
    const auto now = sdht::RecordEnvelope::Clock::now();
    // Signed by the forger over the victim's claimed record: the signature cannot check out.
    const sdht::RecordEnvelope signedByForger =
        sdht::RecordEnvelope::sign(forger, keyHash, now, now + 300s, "forged-owner");
    const sdht::RecordEnvelope claimingVictim(victim, now, now + 300s, "forged-owner",
                                              signedByForger.signature());
    putRaw(runner, key, sdht::RecordRules::valueIdFor(victim), claimingVictim.encode());

    QByteArray brokenSignature =
        sdht::RecordEnvelope::sign(forger, keyHash, now, now + 300s, "forged-signature").encode();
    brokenSignature[brokenSignature.size() - 1] = static_cast<char>(brokenSignature.back() ^ 0x01);
    putRaw(runner, key, sdht::RecordRules::valueIdFor(forger.id()), brokenSignature);

    putRaw(runner, key, 42, QByteArray("SHR1 but far too short to be a record"));

    reportAndWait({{"event", "forged"}});
    runner.join();
    return 0;
}

int runKeyFlood(const QCommandLineParser& arguments) {
    const int keys = arguments.value("flood-keys").toInt();
    sdht::DhtNodeOptions options;
    options.bootstrap = QStringList({arguments.value("bootstrap")});
    options.identity = std::make_shared<const security::PeerIdentity>(security::PeerIdentity::generate());
    sdht::DhtNode node(options);
    waitUntilConnected([&] { return node.connectedNodeCount() > 0; });
    for (int i = 0; i < keys; ++i)
        node.put(arguments.value("key") + "/" + QString::number(i), "flood", 300s);
    const bool done = node.waitForPuts(60s);
    reportAndWait({{"event", "flooded"}, {"puts", done ? keys : 0}});
    return 0;
}

int runForeignFlood(const QCommandLineParser& arguments) {
    const int values = arguments.value("flood-foreign").toInt();
    const sdht::HostPort bootstrap = sdht::HostPort::parse(arguments.value("bootstrap"));
    ::dht::DhtRunner runner;
    startBareNode(runner, bootstrap);
    std::atomic<int> done{0};
    const std::vector<uint8_t> bytes(60000, 0x5A);
    for (int i = 0; i < values; ++i) {
        const std::string key = (arguments.value("key") + "/" + QString::number(i)).toStdString();
        runner.put(::dht::InfoHash::get(key), std::make_shared<::dht::Value>(bytes),
                   [&done](bool) { ++done; });
    }
    for (int i = 0; i < 600 && done.load() < values; ++i) // its puts back, or a minute
        std::this_thread::sleep_for(100ms);
    reportAndWait({{"event", "flooded"}, {"puts", done.load()}});
    runner.join();
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({{"bootstrap", "Known node, host:port.", "address"},
                       {"key", "DHT key.", "key"},
                       {"payload", "First record's payload.", "text"},
                       {"ttl", "First record's ttl in seconds.", "seconds", "60"},
                       {"forge", "Publish forged records instead (see the source)."},
                       {"victim", "Peer id whose slot the forger targets.", "hex"},
                       {"flood-keys", "Publish a record under each of N keys instead.", "N"},
                       {"flood-foreign", "Put N large values of a foreign type instead.", "N"}});
    parser.process(app);
    const bool flood = parser.isSet("flood-keys") || parser.isSet("flood-foreign");
    if (!parser.isSet("bootstrap") || !parser.isSet("key") ||
        (parser.isSet("forge") ? !parser.isSet("victim") : !flood && !parser.isSet("payload"))) {
        std::cerr
            << "sahaj-dht-peer: --bootstrap, --key and --payload (or --forge --victim, or --flood-keys, "
               "or --flood-foreign) are required"
            << std::endl;
        return 2;
    }
    try {
        if (parser.isSet("flood-keys"))
            return runKeyFlood(parser);
        if (parser.isSet("flood-foreign"))
            return runForeignFlood(parser);
        return parser.isSet("forge") ? runForger(parser) : runPeer(parser);
    } catch (const std::exception& e) {
        std::cerr << "sahaj-dht-peer: " << e.what() << std::endl;
        return 1;
    }
}
