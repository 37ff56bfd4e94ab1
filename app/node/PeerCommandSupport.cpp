#include "app/node/PeerCommandSupport.h"

#include "app/node/CommandLine.h"
#include "app/node/StopSignalScope.h"
#include "app/node/UsageError.h"
#include "core/collab/PeerBoard.h"
#include "core/engine/CollaborativePeer.h"
#include "core/fetch/JoinSource.h"
#include "core/run/JoinFile.h"
#include "core/security/IdentityLock.h"
#include "core/security/PeerIdentity.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QTextStream>

#include <cstdio>
#include <iostream>
#include <memory>

namespace sahaj::node {

namespace {

using namespace std::chrono_literals;

QByteArray line(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

void appendTo(QFile& file, const QJsonObject& object) {
    if (file.isOpen()) {
        file.write(line(object));
        file.flush();
    }
}

// The coordinator's metrics for one epoch: what organisers chart.
QJsonObject metricsOf(const engine::EpochReport& report) {
    int peers = 0;
    int clients = 0;
    QJsonObject shares;
    for (const engine::RoundMember& member : report.members) {
        ++peers;
        if (member.role == "client")
            ++clients;
        shares.insert(QString::fromStdString(member.peerId), member.share);
    }
    return QJsonObject{{"epoch", static_cast<qint64>(report.epoch)},
                       {"loss", report.loss},
                       {"peers", peers},
                       {"clients", clients},
                       {"samples_per_second", report.samplesPerSecond},
                       {"round_seconds", report.roundSeconds},
                       {"bytes_sent", static_cast<qint64>(report.bytesSent)},
                       {"bytes_received", static_cast<qint64>(report.bytesReceived)},
                       {"group_size", static_cast<int>(report.members.size())},
                       {"shares", shares},
                       {"alone", report.alone},
                       {"complete", report.complete},
                       {"params_sha256", QString::fromStdString(report.parametersSha256)}};
}

} // namespace

void PeerCommandSupport::addOptions(QCommandLineParser& parser) {
    parser.addOptions({
        {{"manifest", "join"},
         "The run to join: the join link or join file sahaj-node run-init wrote, or the URL of that file "
         "(https://, or http:// on a loopback or private address); a coordinator may also read the plain "
         "manifest.",
         "FILE|LINK|URL"},
        {"organiser",
         "The organiser's public key (64 hex digits, from the organiser): refuse a run signed by anyone "
         "else.",
         "KEY"},
        {"identity", "Folder holding this peer's identity key (created on first use).", "DIR"},
        {"steps",
         "Stop once the collaboration reaches this global step (default: the manifest's max_epochs).", "K"},
        {"gather-ms", "How long a group leader gathers members, in ms (default 5000).", "MS"},
        {"min-gather-ms", "The least time a leader gathers before it may begin early, in ms (default 2000).",
         "MS"},
        {"max-gather-ms",
         "The longest a group leader gathers while members keep coming, in ms (default 3 times --gather-ms).",
         "MS"},
        {"lead-ms", "Start forming a group this long before the batch is due, in ms (default 3000).", "MS"},
        {"threads", "CPU threads for the compute core (default: libtorch's choice).", "N"},
        {"record-ttl-s",
         "How long this peer's records live in the DHT, in seconds (default 60): a peer that left is "
         "forgotten that much later; shorter means more DHT traffic.",
         "S"},
        {"country",
         "Show this peer on the others' peer maps in this country (ISO 3166 alpha-2, e.g. BD) (default: not "
         "shown).",
         "CC"},
        {"out", "Folder for epochs.jsonl and summary.json.", "DIR"},
    });
}

QString PeerCommandSupport::identityDir(const QCommandLineParser& parser, const QString& defaultIdentityDir) {
    return parser.isSet("identity") ? parser.value("identity") : defaultIdentityDir;
}

engine::PeerOptions PeerCommandSupport::options(const QCommandLineParser& parser,
                                                const QString& defaultIdentityDir, bool signedOnly) {
    engine::PeerOptions options;
    const QString run = CommandLine::requiredValue(parser, "manifest");
    try {
        const bool named = run::JoinFile::isLink(run) || fetch::JoinSource::isUrl(run);
        options.manifest = fetch::JoinSource::readRun(
            named ? run : CommandLine::existingFile("manifest", run), signedOnly, parser.value("organiser"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const QString identityDir = PeerCommandSupport::identityDir(parser, defaultIdentityDir);
    QDir().mkpath(identityDir);
    // Two processes with one identity would be one peer id in two places: the DHT and the groups would
    // mix them up. The lock lives as long as the process.
    static std::unique_ptr<QLockFile> identityLock;
    identityLock = security::IdentityLock::take(identityDir);
    if (!identityLock)
        throw UsageError("the identity in " + identityDir.toStdString() +
                         " is in use by another sahaj-node process: give this one its own --identity DIR");
    options.link.identity =
        std::make_shared<const security::PeerIdentity>(security::PeerIdentity::loadOrCreate(identityDir));
    options.stopAtEpoch =
        static_cast<std::uint64_t>(CommandLine::integerValue(parser, "steps", 0, 0, 1'000'000'000));
    const auto gather = CommandLine::integerValue(parser, "gather-ms", 5000, 200, 600'000);
    const auto minGather =
        CommandLine::integerValue(parser, "min-gather-ms", std::min<long long>(2000, gather), 0, gather);
    const auto maxGather = CommandLine::integerValue(
        parser, "max-gather-ms", std::min<long long>(3 * gather, 600'000), gather, 600'000);
    options.link.matchmaking.gatherTime = std::chrono::milliseconds(gather);
    options.link.matchmaking.maxGatherTime = std::chrono::milliseconds(maxGather);
    options.link.matchmaking.minGatherTime = std::chrono::milliseconds(minGather);
    // A follower waits for its leader's longest gather: the deadline leaves it 20 s beyond.
    options.link.matchmaking.deadline = std::chrono::milliseconds(maxGather) + 20s;
    options.link.matchmakingLead =
        std::chrono::milliseconds(CommandLine::integerValue(parser, "lead-ms", 3000, 0, 600'000));
    options.link.version = QCoreApplication::applicationVersion().toStdString();
    options.link.recordTtl =
        std::chrono::seconds(CommandLine::integerValue(parser, "record-ttl-s", 60, 2, 600));
    if (parser.isSet("country")) {
        options.link.country = parser.value("country").toStdString();
        if (options.link.country.empty() || !collab::PeerBoard::isCountryCode(options.link.country))
            throw UsageError("--country must be two capital letters (ISO 3166 alpha-2), e.g. BD");
    }
    options.link.log = [](const std::string& message) {
        // One write per line, so that lines from two threads never interleave.
        const std::string text =
            QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString() + " " + message + "\n";
        std::fwrite(text.data(), 1, text.size(), stderr);
    };
    // The log is this process's own: phase changes go in it too, for whoever reads it after a failure.
    options.link.trace = options.link.log;
    if (parser.isSet("threads")) // the compute core's: the engine itself computes no tensors
        options.computeThreads = static_cast<int>(CommandLine::integerValue(parser, "threads", 1, 1, 1024));
    return options;
}

int PeerCommandSupport::run(engine::PeerOptions options, const QString& role, const QString& outDir,
                            const QString& metricsFile) {
    QFile epochs;
    if (!outDir.isEmpty()) {
        QDir().mkpath(outDir);
        epochs.setFileName(QDir(outDir).filePath("epochs.jsonl"));
        if (!epochs.open(QIODevice::WriteOnly | QIODevice::Append))
            throw std::runtime_error(epochs.fileName().toStdString() + ": " +
                                     epochs.errorString().toStdString());
    }
    QFile metrics;
    if (!metricsFile.isEmpty()) {
        metrics.setFileName(metricsFile);
        if (!metrics.open(QIODevice::WriteOnly | QIODevice::Append))
            throw std::runtime_error(metricsFile.toStdString() + ": " + metrics.errorString().toStdString());
    }

    const StopSignalScope signals;
    engine::CollaborativePeer peer(std::move(options));
    std::cout << line(QJsonObject{{"event", "joined"},
                                  {"peer", QString::fromStdString(peer.peerIdHex())},
                                  {"role", role},
                                  {"endpoint", QString::fromStdString(peer.endpoint())},
                                  {"dht_port", static_cast<int>(peer.dhtPort())},
                                  {"epoch", static_cast<qint64>(peer.epoch())}})
                     .toStdString()
              << std::flush;

    std::uint64_t epochsJoined = 0;
    double lastShare = 0.0;
    double bandwidthMbps = 0.0;
    engine::CollaborativePeer::Events events;
    events.onEpoch = [&](const engine::EpochReport& report) {
        QJsonObject object = report.toJson();
        object.insert("event", "epoch");
        std::cout << line(object).toStdString() << std::flush;
        appendTo(epochs, object);
        if (!report.stateLoaded && !report.alone)
            ++epochsJoined;
        if (!report.stateLoaded) {
            lastShare = report.share;
            bandwidthMbps = report.bandwidthMbps;
            appendTo(metrics, metricsOf(report));
        }
    };
    events.onMessage = [](const std::string& message) { std::cerr << message << std::endl; };
    events.onStatus = [](const engine::LinkStatus& status, std::uint64_t localSamples) {
        const collab::GlobalProgress& global = status.global;
        std::cout << line(QJsonObject{{"event", "status"},
                                      {"epoch", static_cast<qint64>(status.localEpoch)},
                                      {"global_epoch", static_cast<qint64>(global.epoch)},
                                      {"samples", global.samplesAccumulated},
                                      {"target", static_cast<qint64>(global.targetBatchSize)},
                                      {"samples_per_second", global.samplesPerSecond},
                                      {"local_samples", static_cast<qint64>(localSamples)},
                                      {"peers", global.peers},
                                      {"clients", global.clients},
                                      {"problem", QString::fromStdString(status.lastProblem)}})
                         .toStdString()
                  << std::flush;
    };
    const std::uint64_t reached = peer.run(StopSignalScope::requested(), events);

    const QJsonObject summary{{"id", QString::fromStdString(peer.peerIdHex())},
                              {"role", role},
                              {"epoch", static_cast<qint64>(reached)},
                              {"final_params_sha256", QString::fromStdString(peer.parametersSha256())},
                              {"epochs_joined", static_cast<qint64>(epochsJoined)},
                              {"last_share", lastShare},
                              {"bandwidth_mbps", bandwidthMbps}};
    std::cout << line(QJsonObject{{"event", "left"}, {"summary", summary}}).toStdString() << std::flush;
    if (!outDir.isEmpty()) {
        QSaveFile file(QDir(outDir).filePath("summary.json"));
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(summary).toJson()) < 0 ||
            !file.commit())
            throw std::runtime_error(file.fileName().toStdString() + ": " + file.errorString().toStdString());
    }
    return 0;
}

} // namespace sahaj::node
