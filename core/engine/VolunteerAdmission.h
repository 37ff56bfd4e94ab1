#pragma once

#include "core/admission/ReachabilityClient.h"
#include "core/engine/EngineState.h"
#include "core/engine/PeerOptions.h"
#include "core/fetch/ShardMirror.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

namespace sahaj::engine {

// How a volunteer is admitted to its run, for the command line and the app alike: load or create its CURVE
// key, obtain an access token (one the organiser issued, or one asked of the coordinator's token
// endpoint), check it, and fill PeerOptions::link.security with the keys, the token and the renewal.
// Without a secret or an issued token, the token saved at the last join (SavedToken) is used while it is
// valid; every token obtained or renewed is saved for the next start.
class VolunteerAdmission {
public:
    // Admission failed in a way the app says in the volunteer's words (JoinProblem): the organiser's
    // coordinator did not answer, or its token endpoint refused. what() keeps the account, for the log
    // and the command line.
    class Failure : public std::runtime_error {
    public:
        Failure(JoinProblem problem, const std::string& what, std::string reason = {})
            : std::runtime_error(what), problem_(problem), reason_(std::move(reason)) {}

        JoinProblem problem() const { return problem_; }
        // The token endpoint's words for a refusal (a wrong password, a used invite); empty otherwise.
        const std::string& reason() const { return reason_; }

    private:
        JoinProblem problem_;
        std::string reason_;
    };

    struct Credentials {
        QString user = QStringLiteral("volunteer");
        QByteArray secret;      // password or invite code (allowlist and invite runs), never stored
        QByteArray issuedToken; // an organiser-issued token's bytes, empty: ask the endpoint
        QString tokenSource;    // where issuedToken came from, for messages ("--token-file")
        // "tcp://host:port" of the token endpoint; empty: the manifest's, else the one the coordinator
        // announces in the DHT (looked up through `coordinator`).
        std::string endpoint;
    };

    // options.manifest and options.link.identity/role must be set. coordinator: "IPV4:PORT" of its DHT
    // node. Throws std::invalid_argument for a credential problem the user can fix (a bad user name, a
    // token for other keys); Failure when the endpoint refuses, when it is found but never answers within
    // a minute, or on a first join when no DHT node answers at `coordinator` within a minute;
    // std::runtime_error when `cancel` is set or the endpoint's answer is unusable. Otherwise it looks for
    // the coordinator's token endpoint without end (docs/emulated-internet.md, "Never giving up"): a
    // coordinator restarting or a line down is waited for. Returns the token endpoint it used
    // ("tcp://host:port"), empty when the token was issued and no endpoint is known.
    static std::string admit(PeerOptions& options, const QString& identityDir, Credentials credentials,
                             const QString& coordinator, const std::atomic<bool>* cancel = nullptr);

    // The coordinator's data mirror on `endpoint` (what admit() returned), for the peer admit() filled
    // `options` for; null when `endpoint` is empty.
    static std::shared_ptr<fetch::ShardMirror> coordinatorMirror(const PeerOptions& options,
                                                                 const std::string& endpoint);

    // Asks the token endpoint `endpoint` (what admit() returned) to dial this peer back at `port`
    // (ReachabilityCheck), as the peer admit() filled `options` for. Throws std::runtime_error when the
    // endpoint refuses or does not answer within `timeout`.
    static admission::ReachabilityClient::Answer askReachability(const PeerOptions& options,
                                                                 const std::string& endpoint,
                                                                 std::uint16_t port,
                                                                 std::chrono::milliseconds timeout);
};

} // namespace sahaj::engine
