#include "core/engine/VolunteerSetup.h"

#include "core/engine/DataPreparation.h"
#include "core/engine/ReachabilityCheck.h"
#include "core/engine/ShardFeed.h"
#include "core/engine/VolunteerAdmission.h"
#include "core/fetch/JoinSource.h"
#include "core/net/RouteSource.h"
#include "core/security/AccessToken.h"
#include "core/security/PeerIdentity.h"
#include "core/security/SecretFile.h"

#include <QDir>
#include <QRegularExpression>

#include <random>
#include <stdexcept>

namespace sahaj::engine {

namespace {

using namespace std::chrono_literals;

constexpr double kBytesPerMegabit = 1e6 / 8.0;

} // namespace

void VolunteerSetup::checkAddress(const QString& what, const QString& address, bool anyPort) {
    static const QRegularExpression form(
        QStringLiteral("^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3}):(\\d{1,5})$"));
    const QRegularExpressionMatch match = form.match(address);
    bool ok = match.hasMatch();
    for (int i = 1; ok && i <= 4; ++i)
        ok = match.captured(i).toInt() <= 255;
    const int port = ok ? match.captured(5).toInt() : -1;
    if (!ok || port > 65535 || (port == 0 && !anyPort))
        throw std::invalid_argument(what.toStdString() + " must be IPV4:PORT, e.g. 127.0.0.1:4600, got '" +
                                    address.toStdString() + "'");
}

QString VolunteerSetup::defaultCacheDir(const QString& identityDir) {
    return QDir(identityDir).filePath(QStringLiteral("shards"));
}

PeerOptions VolunteerSetup::options(const JoinRequest& request, const std::atomic<bool>* cancel,
                                    const fetch::ProgressCallback& progress,
                                    const DataPreparation::Log& log) {
    if (const QString problem = request.problem(); !problem.isEmpty())
        throw std::invalid_argument(problem.toStdString());
    PeerOptions options;
    options.manifest =
        fetch::JoinSource::readRun(request.run.trimmed(), /*signedOnly=*/true, request.organiser, {}, cancel);
    const QString coordinator = !request.coordinator.isEmpty() ? request.coordinator
                                : options.manifest.coordinators.isEmpty()
                                    ? QString()
                                    : options.manifest.coordinators.first();
    if (coordinator.isEmpty())
        throw std::invalid_argument("the run names no coordinator: give its address");
    checkAddress(QStringLiteral("the coordinator's address"), coordinator, false);
    // Unless given, where the system routes toward the coordinator (net::RouteSource): on loopback, only a
    // coordinator on this computer could be reached.
    const QString listen = !request.listen.isEmpty()
                               ? request.listen
                               : net::RouteSource::listenToward(coordinator.section(QLatin1Char(':'), 0, 0));
    checkAddress(QStringLiteral("the listening address"), listen, true);

    QDir().mkpath(request.identityDir);
    options.link.identity = std::make_shared<const security::PeerIdentity>(
        security::PeerIdentity::loadOrCreate(request.identityDir));
    options.link.role = request.clientMode ? wire::ROLE_CLIENT : wire::ROLE_NODE;
    options.link.stateDonor = !request.clientMode;
    options.trains = true;
    options.device = request.device.toStdString();
    options.dutyCycle = request.limits.computePercent / 100.0;
    options.stopAtEpoch = request.stopAtEpoch;
    options.statusInterval = 1000ms; // the app shows live figures

    const QString host = listen.section(QLatin1Char(':'), 0, 0);
    options.link.bootstrap = {coordinator};
    options.link.dhtBindAddress = host;
    options.link.listenEndpoint = "tcp://" + listen.toStdString();
    options.link.uploadBytesPerSecond = request.limits.maxUploadMbps * kBytesPerMegabit;
    options.link.downloadBytesPerSecond = request.limits.maxDownloadMbps * kBytesPerMegabit;
    options.link.country = request.country.toStdString();
    // sahaj-node's defaults (PeerCommandSupport): gather for 5 s (at least 2 s, at most 15 s while members
    // keep coming), start 3 s before the ETA.
    options.link.matchmaking.gatherTime = 5000ms;
    options.link.matchmaking.maxGatherTime = 3 * options.link.matchmaking.gatherTime;
    options.link.matchmaking.minGatherTime = 2000ms;
    options.link.matchmaking.deadline = options.link.matchmaking.maxGatherTime + 20s;
    options.link.matchmakingLead = 3000ms;

    VolunteerAdmission::Credentials credentials;
    credentials.user = request.user;
    credentials.secret = request.secret.toUtf8();
    if (!request.tokenFile.isEmpty()) {
        credentials.issuedToken =
            security::SecretFile(request.tokenFile, QStringLiteral("the token file"),
                                 security::AccessToken::kMaxBytes, security::SecretFile::Access::Unchecked)
                .readExisting();
        credentials.tokenSource = QStringLiteral("the token file");
    }
    if (!request.authEndpoint.isEmpty()) {
        checkAddress(QStringLiteral("the token endpoint"), request.authEndpoint, false);
        credentials.endpoint = "tcp://" + request.authEndpoint.toStdString();
    }
    // Admitted first: the coordinator's data mirror serves admitted peers only.
    const std::string endpoint =
        VolunteerAdmission::admit(options, request.identityDir, std::move(credentials), coordinator, cancel);
    // Unless the user chose client mode: a node only if the others can dial it.
    options.reachability = ReachabilityCheck::apply(options, endpoint);
    options.followRoute = request.listen.isEmpty();
    options.authEndpoint = endpoint;

    DataSources sources;
    sources.dataDir = request.dataDir;
    sources.cacheDir = !request.cacheDir.isEmpty() ? request.cacheDir : defaultCacheDir(request.identityDir);
    sources.cacheCapBytes = request.cacheCapBytes;
    sources.transfer.maxBytesPerSecond = std::int64_t(request.limits.maxDownloadMbps * kBytesPerMegabit);
    if (auto mirror = VolunteerAdmission::coordinatorMirror(options, endpoint))
        sources.mirrors.push_back(std::move(mirror));
    sources.cursorPath = DataCursor::pathIn(request.identityDir, options.manifest.runId);
    const QString peerId = options.link.identity->id().toHex();
    const PreparedData data =
        DataPreparation::prepare(options.manifest, peerId, sources, progress, log, cancel);
    options.data.corpusPath = data.corpusPath;
    options.data.tokenizerPath = data.tokenizerPath;
    options.data.start = data.cursor;
    options.data.feed = ShardFeed::after(options.manifest, peerId, sources, data);
    options.data.microBatchSize = request.limits.microBatch;
    options.data.seed = request.seed ? *request.seed : std::random_device{}();

    return options;
}

} // namespace sahaj::engine
