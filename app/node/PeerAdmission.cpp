#include "app/node/PeerAdmission.h"

#include "app/node/CommandLine.h"
#include "app/node/PeerAddress.h"
#include "app/node/UsageError.h"
#include "core/admission/ShardLibrary.h"
#include "core/admission/ShardRequestHandler.h"
#include "core/admission/TokenRefused.h"
#include "core/admission/TokenServer.h"
#include "core/collab/PeerBoard.h"
#include "core/dht/DhtNode.h"
#include "core/engine/VolunteerAdmission.h"
#include "core/net/ZapHandler.h"
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/RevocationFile.h"
#include "core/security/SecretFile.h"
#include "core/security/TokenAuthority.h"
#include "core/security/Username.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>

#include <zmq.hpp>

#include <iostream>
#include <thread>

namespace sahaj::node {

namespace {

using namespace std::chrono_literals;

// A small file the user names on the command line, read through SecretFile (bounded, a regular file);
// any problem is a usage error naming the option.
QByteArray readSmallFile(const QString& option, const QString& path, qint64 limit) {
    try {
        return security::SecretFile(path, "--" + option, limit, security::SecretFile::Access::Unchecked)
            .readExisting();
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

// The password or invite code: the first line of --secret-file, or $SAHAJ_SECRET (never a command-line
// argument, which every user of the machine can read in the process list).
QByteArray secretOf(const QCommandLineParser& parser) {
    if (parser.isSet("secret-file"))
        return readSmallFile("secret-file", parser.value("secret-file"), 4096).split('\n').first().trimmed();
    return QProcessEnvironment::systemEnvironment().value("SAHAJ_SECRET").toUtf8();
}

net::SocketFactory::Curve curveOf(const security::CurveKeyPair& keys) {
    return {keys.publicKey().toStdString(), keys.secretKey().toStdString(),
            net::ZapHandler::kAdmissionDomain};
}

// The data mirror of --serve-data: the run's files found in the folder, each checked once. Prints
// {"event":"mirror","files":N,"of":M} and a line on stderr for each file not served.
admission::ShardRequestHandler dataMirror(const QCommandLineParser& parser, const run::RunManifest& manifest,
                                          const security::PeerId& organiser) {
    const QString folder = parser.value("serve-data");
    QStringList missing;
    admission::ShardLibrary library;
    try {
        library = admission::ShardLibrary::fromFolder(manifest, folder, &missing);
    } catch (const std::runtime_error& e) {
        throw UsageError(std::string("--serve-data: ") + e.what());
    }
    const std::size_t files = manifest.data.size() + (manifest.tokenizer.url.isEmpty() ? 0 : 1);
    if (library.size() == 0)
        throw UsageError("--serve-data: " + folder.toStdString() + " holds none of the run's " +
                         std::to_string(files) + " files:\n  " + missing.join("\n  ").toStdString());
    for (const QString& line : missing)
        std::cerr << "sahaj-node: data mirror: not served: " << line.toStdString() << "\n";
    std::cout << QJsonDocument(QJsonObject{{"event", "mirror"},
                                           {"files", qint64(library.size())},
                                           {"of", qint64(files)}})
                     .toJson(QJsonDocument::Compact)
                     .toStdString()
              << std::endl;
    const double mbps = CommandLine::realValue(parser, "serve-data-mbps", 200.0, 0.0, 1e6);
    return admission::ShardRequestHandler(std::move(library), organiser, manifest.runId, mbps * 1e6 / 8.0);
}

} // namespace

class TokenEndpoint {
public:
    TokenEndpoint(const std::string& runId, net::SocketFactory::Curve curve, const std::string& listen,
                  security::TokenAuthority authority, const security::PeerId& organiser, const QString& run,
                  std::optional<admission::ShardRequestHandler> shards)
        : zap_(context_, net::ZapHandler::runDomain(runId)),
          server_(
              context_, std::move(curve), listen, std::move(authority), organiser, run,
              [](const QString& line) {
                  const std::string text =
                      QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString() + " " +
                      line.toStdString() + "\n";
                  std::fwrite(text.data(), 1, text.size(), stderr);
              },
              std::move(shards)) {}

    const std::string& endpoint() const { return server_.endpoint(); }

private:
    zmq::context_t context_;
    net::ZapHandler zap_; // the endpoint's domain admits any key; the handler must still be there
    admission::TokenServer server_;
};

void PeerAdmission::addVolunteerOptions(QCommandLineParser& parser) {
    parser.addOptions({
        {"auth-endpoint",
         "IPV4:PORT of the coordinator's token endpoint (default: the manifest's, else the coordinator's "
         "address at its port + 1).",
         "ADDR"},
        {"user", "User name to ask for an access token with (default 'volunteer').", "NAME"},
        {"secret-file",
         "File whose first line is the password (allowlist runs) or invite code (invite runs); "
         "$SAHAJ_SECRET also works.",
         "FILE"},
        {"token-file", "Use this access token, issued by the organiser (sahaj-node auth issue-token).",
         "FILE"},
    });
}

void PeerAdmission::addCoordinatorOptions(QCommandLineParser& parser) {
    parser.addOptions({
        {"organiser-key",
         "Folder of the organiser's keys, as run-init made it (default: 'organiser' beside the manifest).",
         "DIR"},
        {"auth", "Who gets an access token: open, allowlist:FILE or invites:FILE (default open).", "POLICY"},
        {"auth-listen", "IPV4:PORT of the token endpoint (TCP) (default: --listen's port + 1).", "ADDR"},
        {"token-lifetime", "Seconds an access token is valid (default 21600; 60 to 2592000).", "S"},
        {"revocations",
         "The organiser's revocations: a text file of peer ids (64 hex digits each, one per line, '#' starts "
         "a comment). Listed peers get no token, renewals included, and every peer of the run refuses their "
         "records and connections within about a minute. Read again whenever it changes; a missing file is "
         "an empty list.",
         "FILE"},
        {"joins-per-address",
         "Open runs: first token requests answered per minute from one IP address (default 6; 1 to 10000). "
         "Raise it where many volunteers share an address (a campus NAT); the others are told when to ask "
         "again.",
         "N"},
        {"serve-data",
         "Serve the run's shards and tokenizer found in DIR (under their URLs' file names, as run-init "
         "--url-prefix lays them out) to admitted volunteers on the token endpoint: their mirror of last "
         "resort, so that a private run needs no web server.",
         "DIR"},
        {"serve-data-mbps",
         "Cap on what the data mirror sends, Mbit/s over all volunteers (default 200; 0: none).", "MBPS"},
    });
}

std::string PeerAdmission::admitVolunteer(const QCommandLineParser& parser, engine::PeerOptions& options,
                                          const QString& identityDir, const PeerAddress& coordinator) {
    engine::VolunteerAdmission::Credentials credentials;
    if (parser.isSet("user"))
        credentials.user = parser.value("user");
    credentials.secret = secretOf(parser);
    if (parser.isSet("token-file")) {
        credentials.issuedToken =
            readSmallFile("token-file", parser.value("token-file"), security::AccessToken::kMaxBytes);
        credentials.tokenSource = QStringLiteral("--token-file");
    }
    if (parser.isSet("auth-endpoint"))
        credentials.endpoint =
            "tcp://" + PeerAddress::parse("auth-endpoint", parser.value("auth-endpoint"), false)
                           .toString()
                           .toStdString();
    try {
        return engine::VolunteerAdmission::admit(options, identityDir, std::move(credentials),
                                                 coordinator.toString());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

std::shared_ptr<TokenEndpoint> PeerAdmission::admitCoordinator(const QCommandLineParser& parser,
                                                               engine::PeerOptions& options,
                                                               const QString& identityDir,
                                                               const QString& manifestPath,
                                                               const PeerAddress& listen) {
    const run::RunManifest& manifest = options.manifest;
    if (manifest.organiser.isEmpty() || manifest.authCurveKey.isEmpty())
        throw UsageError("the manifest is not signed for admission (no organiser or auth_curve_key): "
                         "make it with a current sahaj-node run-init");
    const QString keyDir = parser.isSet("organiser-key")
                               ? parser.value("organiser-key")
                               : QFileInfo(manifestPath).dir().filePath("organiser");
    for (const char* name : {security::PeerIdentity::kKeyFileName, security::CurveKeyPair::kKeyFileName})
        if (!QFileInfo(QDir(keyDir).filePath(name)).isFile())
            throw UsageError("--organiser-key: " + keyDir.toStdString() + " holds no " + name +
                             " (run-init creates the organiser's keys there)");
    auto organiser =
        std::make_shared<const security::PeerIdentity>(security::PeerIdentity::loadOrCreate(keyDir));
    const security::CurveKeyPair endpointKeys = security::CurveKeyPair::loadOrCreate(keyDir);
    if (organiser->id().toHex() != manifest.organiser ||
        QString::fromLatin1(endpointKeys.publicKey().toHex()) != manifest.authCurveKey)
        throw UsageError("--organiser-key: the keys in " + keyDir.toStdString() +
                         " are not the ones this manifest names (organiser, auth_curve_key)");

    security::TokenAuthority::Options authorityOptions;
    authorityOptions.runId = manifest.runId;
    authorityOptions.lifetimeSeconds =
        CommandLine::integerValue(parser, "token-lifetime", 21600, 60, 2592000);
    authorityOptions.openRequestsPerAddressPerMinute = static_cast<int>(CommandLine::integerValue(
        parser, "joins-per-address", authorityOptions.openRequestsPerAddressPerMinute, 1, 10000));
    const QString policy = parser.isSet("auth") ? parser.value("auth") : QStringLiteral("open");
    std::optional<security::TokenAuthority> authority;
    try {
        authority.emplace(security::TokenAuthority::fromPolicy(policy, *organiser, authorityOptions));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--auth: ") + e.what());
    }
    if (parser.isSet("revocations")) {
        const QString revocations = parser.value("revocations");
        try {
            authority->setRevocations(security::RevocationFile(revocations));
        } catch (const std::exception& e) {
            throw UsageError(std::string("--revocations: ") + e.what());
        }
        // The link reads the file on its own thread, the authority on the token endpoint's.
        options.link.revocationsPath = revocations;
    }

    const PeerAddress authListen = PeerAddress::parse(
        "auth-listen",
        parser.isSet("auth-listen")
            ? parser.value("auth-listen")
            : PeerAddress{listen.host, static_cast<std::uint16_t>(listen.port == 0 ? 0 : listen.port + 1)}
                  .toString(),
        true);
    std::optional<admission::ShardRequestHandler> shards;
    if (parser.isSet("serve-data"))
        shards.emplace(dataMirror(parser, manifest, organiser->id()));
    // The endpoint's context and ZAP handler are its own: the link's belong to the link's thread.
    auto server = std::make_shared<TokenEndpoint>(
        manifest.runId.toStdString(), curveOf(endpointKeys), "tcp://" + authListen.toString().toStdString(),
        std::move(*authority), organiser->id(), manifest.runId, std::move(shards));
    options.link.authEndpoint = server->endpoint();
    std::cout << QJsonDocument(QJsonObject{{"event", "auth"},
                                           {"endpoint", QString::fromStdString(server->endpoint())},
                                           {"policy", policy.section(':', 0, 0)}})
                     .toJson(QJsonDocument::Compact)
                     .toStdString()
              << std::endl;

    // The coordinator's own token: issued by the organiser's key it holds, renewed the same way.
    auto curve =
        std::make_shared<const security::CurveKeyPair>(security::CurveKeyPair::loadOrCreate(identityDir));
    const auto identity = options.link.identity;
    const qint64 lifetime = authorityOptions.lifetimeSeconds;
    const QString runId = manifest.runId;
    const auto issue = [organiser, curve, identity, lifetime, runId](const QByteArray&) {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        return security::AccessToken::issue(runId, QStringLiteral("coordinator"), identity->id(),
                                            curve->publicKey(), security::AccessToken::Role::Coordinator, now,
                                            now + lifetime, *organiser)
            .toBytes();
    };
    engine::LinkSecurity security;
    security.admission = {organiser->id(), manifest.runId};
    security.curve = curve;
    security.token = issue({});
    security.renew = issue;
    options.link.security = std::move(security);
    return server;
}

} // namespace sahaj::node
