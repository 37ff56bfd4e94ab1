#pragma once

#include "core/engine/PeerOptions.h"

#include <QCommandLineParser>
#include <QString>

#include <memory>

namespace sahaj::node {

// The coordinator's running token endpoint (its own ZeroMQ context, ZAP handler and server): it serves
// until the last handle goes.
class TokenEndpoint;

struct PeerAddress;

// How a sahaj-node peer is admitted to its run. A volunteer gets an access token from the coordinator's
// token endpoint (or a file an organiser issued by hand) and renews it before it expires; the
// coordinator holds the organiser's key, serves the endpoint by the run's policy and issues its own token.
// Either way the peer's link gets its CURVE key pair, its token and the run's admission rule
// (engine::LinkSecurity), so every socket is encrypted and only admitted peers are heard.
class PeerAdmission {
public:
    static void addVolunteerOptions(QCommandLineParser& parser);
    static void addCoordinatorOptions(QCommandLineParser& parser);

    // Loads or creates the CURVE key in `identityDir`, obtains a token (--token-file, or a request to the
    // endpoint: --auth-endpoint, else the manifest's, else the one the coordinator announces in the DHT;
    // retried for up to a minute while the endpoint does not answer) and fills options.link.security.
    // Renewals go to the same endpoint; with --token-file and no endpoint known, the token is not renewed.
    // Throws UsageError for bad options, std::runtime_error when the endpoint refuses or never answers.
    // Returns the endpoint used (empty with --token-file and none known): the coordinator's data mirror.
    static std::string admitVolunteer(const QCommandLineParser& parser, engine::PeerOptions& options,
                                      const QString& identityDir, const PeerAddress& coordinator);

    // The coordinator's side: checks that --organiser-key holds the manifest's organiser and endpoint keys,
    // starts the token endpoint (--auth-listen, default `listen` at its port + 1, or any free port when
    // that is 0) with --auth's policy, prints {"event":"auth","endpoint":...}, announces the endpoint in the
    // coordinator's DHT record, and fills options.link.security with a coordinator token it renews itself.
    // The returned endpoint must outlive the peer.
    static std::shared_ptr<TokenEndpoint>
    admitCoordinator(const QCommandLineParser& parser, engine::PeerOptions& options,
                     const QString& identityDir, const QString& manifestPath, const PeerAddress& listen);
};

} // namespace sahaj::node
