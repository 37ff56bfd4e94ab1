#include "app/node/VolunteerCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/DownloadProgressPrinter.h"
#include "app/node/PeerAddress.h"
#include "app/node/PeerAdmission.h"
#include "app/node/PeerCommandSupport.h"
#include "app/node/UsageError.h"
#include "core/engine/AttackPlan.h"
#include "core/engine/DataPreparation.h"
#include "core/engine/ReachabilityCheck.h"
#include "core/engine/ShardFeed.h"
#include "core/engine/VolunteerAdmission.h"
#include "core/engine/VolunteerSetup.h"
#include "core/net/RouteSource.h"
#include "core/security/PeerIdentity.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <iostream>
#include <random>

namespace sahaj::node {

QString VolunteerCommand::description() const {
    return QStringLiteral(
        "Join a collaboration: bootstrap from the coordinator, load the newest state from a donor, and\n"
        "train on this machine's share of the batch, averaging with the others each global step. With\n"
        "the coordinator dials it back: when it cannot (behind NAT or a firewall), or with --client-mode,\n"
        "the peer only connects out and aggregates nothing; with --aux it trains nothing and only\n"
        "aggregates. Upload and download caps are enforced in the\n"
        "transport and bound the bandwidth the load balancer plans with. One JSON line per global step;\n"
        "SIGINT or SIGTERM leaves the collaboration and publishes the departure.");
}

void VolunteerCommand::addOptions(QCommandLineParser& parser) const {
    PeerCommandSupport::addOptions(parser);
    PeerAdmission::addVolunteerOptions(parser);
    parser.addOptions({
        {"coordinator", "IPV4:PORT of the coordinator (default: the manifest's first).", "ADDR"},
        {"listen",
         "IPV4:PORT this peer accepts connections on, its DHT node too (default: the address this computer "
         "reaches the coordinator from, any free port).",
         "ADDR"},
        {"client-mode",
         "Connect out only; aggregate nothing (share 0), even when the coordinator can dial this peer back "
         "(default: only when it cannot)."},
        {"aux", "Train nothing; only aggregate (weight 0)."},
        {"device",
         "auto (the GPUs whose cores pass their self-test, else the CPU), cpu, cuda or cuda:N (default "
         "auto).",
         "DEVICE"},
        {"max-upload-mbps", "Upload cap in Mbit/s (default: none).", "X"},
        {"max-download-mbps", "Download cap in Mbit/s (default: none).", "Y"},
        {"batch", "Samples per micro-batch: bounds memory use (default 8).", "B"},
        {"data-dir", "Folder that already holds some of the run's shards under their file names.", "DIR"},
        {"cache-dir",
         "Folder of the downloaded shards and tokenizer (default: 'shards' in the identity folder).", "DIR"},
        {"cache-gib", "The most the shard cache holds, in GiB (default 20).", "G"},
        {"seed", "Seed of this peer's data order (default: random).", "S"},
        {"max-compute-percent", "Compute at most this share of the time, in percent (default 100).", "P"},
        {"core-nice",
         "Run the compute cores at this niceness, 0-19 as nice(1) counts (default 0): the engine and "
         "other programs go first when CPU time is short.",
         "N"},
        {"claim-mbps",
         "Testing a run's defences only: declare this upload and download bandwidth in Mbit/s instead of "
         "the measured one (default: the measured one).",
         "X"},
        {"attack",
         "Testing a run's defences only: send a corrupted gradient instead of the real one, 'negate' "
         "(reversed, x1000) or 'random' (a random direction, 1000x the norm), or a corrupted state, "
         "'negative-moments' (LAMB's second moments as -1e30 in the state rounds) or 'heavy-state' "
         "(parameters of its own with a weight of 10^12 in the state rounds), or lying progress, "
         "'inflated-samples' (10^12 samples claimed in its records, on joining and as its gradient's "
         "weight), 'always-ready' (the same, believing it itself: it steps as soon as it can) or "
         "'future-epoch' (records two epochs ahead of its own), or lying averages, 'equivocate' (as an "
         "aggregator, other averages for each member, each under a valid seal), 'wrong-mean' (as an "
         "aggregator, the same wrong averages for every member), or lying as a leader, "
         "'split-plans' (the shortest gather, and another plan for each member), or as a donor, "
         "'fake-state' (a state of its own making, an epoch ahead). Several kinds, comma-separated, lie in "
         "several roles at once; at most one of them changes what it sends (default none).",
         "KIND[,KIND...]"},
    });
}

int VolunteerCommand::run(const QCommandLineParser& parser) {
    const QString appData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    engine::PeerOptions options = PeerCommandSupport::options(parser, appData, true);
    if (parser.isSet("client-mode") && parser.isSet("aux"))
        throw UsageError("--client-mode and --aux exclude each other: an auxiliary must accept connections");
    if (!parser.isSet("coordinator") && options.manifest.coordinators.isEmpty())
        throw UsageError("the manifest names no coordinator: pass --coordinator IPV4:PORT");
    const PeerAddress coordinator = PeerAddress::parse(
        "coordinator",
        parser.isSet("coordinator") ? parser.value("coordinator") : options.manifest.coordinators.first(),
        false);
    // Unless told, where the system routes toward the coordinator (loopback for a coordinator on this
    // machine).
    const PeerAddress listen = PeerAddress::parse(
        "listen",
        parser.isSet("listen") ? parser.value("listen") : net::RouteSource::listenToward(coordinator.host),
        true);
    options.link.bootstrap = {coordinator.toString()};
    options.link.dhtBindAddress = listen.host;
    options.link.listenEndpoint = "tcp://" + listen.toString().toStdString();
    options.link.role = parser.isSet("client-mode") ? wire::ROLE_CLIENT
                        : parser.isSet("aux")       ? wire::ROLE_AUXILIARY
                                                    : wire::ROLE_NODE;
    options.link.stateDonor = options.link.role == wire::ROLE_NODE;
    options.trains = options.link.role != wire::ROLE_AUXILIARY;
    options.dutyCycle = CommandLine::realValue(parser, "max-compute-percent", 100.0, 1.0, 100.0) / 100.0;
    options.coreNiceness = static_cast<int>(CommandLine::integerValue(parser, "core-nice", 0, 0, 19));
    options.device = parser.isSet("device") ? parser.value("device").toStdString() : "auto";
    if (parser.isSet("attack")) {
        try {
            engine::AttackPlan::parse(parser.value("attack")).applyTo(options);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--attack: ") + e.what());
        }
    }
    const double mbps = 1e6 / 8.0;
    options.link.uploadBytesPerSecond =
        CommandLine::realValue(parser, "max-upload-mbps", 0.0, 0.0, 1e6) * mbps;
    options.link.downloadBytesPerSecond =
        CommandLine::realValue(parser, "max-download-mbps", 0.0, 0.0, 1e6) * mbps;
    options.link.claimedBytesPerSecond = CommandLine::realValue(parser, "claim-mbps", 0.0, 0.0, 1e7) * mbps;
    // Admitted first: the coordinator's data mirror serves admitted peers only.
    const std::string authEndpoint = PeerAdmission::admitVolunteer(
        parser, options, PeerCommandSupport::identityDir(parser, appData), coordinator);
    options.reachability = engine::ReachabilityCheck::apply(options, authEndpoint);
    options.followRoute = !parser.isSet("listen");
    options.authEndpoint = authEndpoint;
    std::cerr << "sahaj-node: " << options.reachability.summary().toStdString() << "\n";
    std::cout << QJsonDocument(QJsonObject{{"event", "reachability"},
                                           {"verdict", options.reachability.name()},
                                           {"local", options.reachability.localAddress},
                                           {"observed", options.reachability.observedAddress},
                                           {"sends_only", options.reachability.sendsOnly()}})
                     .toJson(QJsonDocument::Compact)
                     .toStdString()
              << std::endl;
    if (options.trains) {
        engine::DataSources sources;
        sources.dataDir = parser.value("data-dir");
        const QString identityDir = PeerCommandSupport::identityDir(parser, appData);
        sources.cacheDir = parser.isSet("cache-dir") ? parser.value("cache-dir")
                                                     : engine::VolunteerSetup::defaultCacheDir(identityDir);
        sources.cacheCapBytes =
            std::int64_t(CommandLine::realValue(parser, "cache-gib", 20.0, 0.001, 1e6) * double(1ll << 30));
        sources.transfer.maxBytesPerSecond = std::int64_t(options.link.downloadBytesPerSecond);
        if (auto mirror = engine::VolunteerAdmission::coordinatorMirror(options, authEndpoint))
            sources.mirrors.push_back(std::move(mirror));
        sources.cursorPath = engine::DataCursor::pathIn(identityDir, options.manifest.runId);
        const QString peerId = options.link.identity->id().toHex();
        DownloadProgressPrinter printer;
        const engine::PreparedData data = engine::DataPreparation::prepare(
            options.manifest, peerId, sources, [&](const fetch::DownloadProgress& p) { printer(p); },
            [](const QString& line) { std::cerr << "sahaj-node: " << line.toStdString() << "\n"; });
        for (const auto& [name, report] : data.fetched)
            std::cout << QJsonDocument(QJsonObject{{"event", "fetched"},
                                                   {"name", name},
                                                   {"place", report.place},
                                                   {"bytes_received", qint64(report.bytesReceived)},
                                                   {"bytes_resumed", qint64(report.bytesResumed)},
                                                   {"seconds", report.seconds}})
                             .toJson(QJsonDocument::Compact)
                             .toStdString()
                      << std::endl;
        for (const fetch::PlaceFailure& failure : data.failures)
            std::cerr << "sahaj-node: " << failure.url.toStdString() << ": " << failure.reason.toStdString()
                      << "\n";
        options.data.corpusPath = data.corpusPath;
        options.data.tokenizerPath = data.tokenizerPath;
        options.data.start = data.cursor;
        options.data.feed = engine::ShardFeed::after(options.manifest, peerId, sources, data);
        options.data.microBatchSize =
            static_cast<int>(CommandLine::integerValue(parser, "batch", 8, 1, 65536));
        options.data.seed =
            parser.isSet("seed")
                ? static_cast<std::uint64_t>(CommandLine::integerValue(parser, "seed", 0, 0, 1LL << 62))
                : std::random_device{}();
    }
    const QString role = options.link.role == wire::ROLE_CLIENT      ? QStringLiteral("client")
                         : options.link.role == wire::ROLE_AUXILIARY ? QStringLiteral("auxiliary")
                                                                     : QStringLiteral("node");
    return PeerCommandSupport::run(std::move(options), role,
                                   parser.isSet("out") ? parser.value("out") : QString(), QString());
}

} // namespace sahaj::node
