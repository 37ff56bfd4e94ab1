#include "core/engine/VolunteerAdmission.h"

#include "core/admission/CoordinatorMirror.h"
#include "core/admission/EndpointCall.h"
#include "core/admission/TokenClient.h"
#include "core/admission/TokenRefused.h"
#include "core/collab/PeerBoard.h"
#include "core/dht/ClockEvidence.h"
#include "core/dht/DhtNode.h"
#include "core/engine/SavedToken.h"
#include "core/net/CoordinatorClock.h"
#include "core/net/SocketFactory.h"
#include "core/net/ZapHandler.h"
#include "core/security/AccessToken.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"
#include "core/security/Username.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <zmq.hpp>

#include <stdexcept>
#include <thread>

namespace sahaj::engine {

namespace {

using namespace std::chrono_literals;

// A volunteer's first token request waits this long for an endpoint that does not answer yet (the
// coordinator may still be starting), asking again every kRequestTimeout.
constexpr auto kFirstTokenPatience = 60s;
// Waits a rate-limiting endpoint asks for (TokenRefused::retryAfter), in all: many volunteers that share an
// address (a campus NAT) or join at once are told to come back, and do, rather than give up.
constexpr auto kRateLimitPatience = 10min;
constexpr auto kRequestTimeout = 5s;
// A clock off by less than this is not worth a word: the run's time absorbs it.
constexpr std::chrono::milliseconds kClockWorthSaying = 2s;

bool cancelled(const std::atomic<bool>* cancel) {
    return cancel && cancel->load();
}

// Sleeps `duration` in short steps; false when cancelled first.
bool sleepUnlessCancelled(std::chrono::milliseconds duration, const std::atomic<bool>* cancel) {
    const auto until = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < until) {
        if (cancelled(cancel))
            return false;
        std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
            200ms, std::chrono::ceil<std::chrono::milliseconds>(until - std::chrono::steady_clock::now())));
    }
    return !cancelled(cancel);
}

security::AccessToken::Role tokenRole(wire::Role role) {
    switch (role) {
    case wire::ROLE_CLIENT:
        return security::AccessToken::Role::Client;
    case wire::ROLE_AUXILIARY:
        return security::AccessToken::Role::Aux;
    default:
        return security::AccessToken::Role::Node;
    }
}

std::string rawKey(const QString& hex) {
    return QByteArray::fromHex(hex.toLatin1()).toStdString();
}

// Sockets for requests to the token endpoint, as `identity` with its CURVE pair `curve`.
net::SocketFactory endpointSockets(zmq::context_t& context, const security::PeerIdentity& identity,
                                   const security::CurveKeyPair& curve) {
    return net::SocketFactory(context, identity.id().bytes().toStdString(), {},
                              net::SocketFactory::Curve{curve.publicKey().toStdString(),
                                                        curve.secretKey().toStdString(),
                                                        net::ZapHandler::kAdmissionDomain});
}

// One request to the endpoint, on a context of its own (the link's context belongs to its thread).
// The exchange is noted in `clock` (the run's time).
QByteArray requestToken(const std::string& endpoint, const run::RunManifest& manifest,
                        const security::PeerIdentity& identity, const security::CurveKeyPair& curve,
                        admission::TokenClient::Request request, net::CoordinatorClock& clock) {
    zmq::context_t context;
    const net::SocketFactory sockets = endpointSockets(context, identity, curve);
    return admission::TokenClient::request(sockets, endpoint, rawKey(manifest.authCurveKey), identity,
                                           manifest.runId, security::PeerId::fromHex(manifest.organiser),
                                           std::move(request), kRequestTimeout, &clock);
}

// Says how far this computer's clock is from the coordinator's, when that is enough to matter to a person
// (the run goes on by the coordinator's time: docs/security.md, "Clocks").
void tellClockOffset(const net::CoordinatorClock& clock) {
    const auto offset = clock.offset();
    if (!clock.measured() || std::chrono::abs(offset) < kClockWorthSaying)
        return;
    qWarning(
        "this computer's clock is %.1f s %s the coordinator's: the run's records are stamped and read by "
        "the coordinator's time; set this clock right (NTP) all the same",
        static_cast<double>(std::chrono::abs(offset).count()) / 1000.0,
        offset.count() < 0 ? "ahead of" : "behind");
}

// The token endpoint the coordinator announces in its DHT record (a record whose token, signed by the
// organiser, has the coordinator role): a volunteer needs to know only the coordinator's DHT address.
// Reading the DHT needs no token. The reader binds where the peer's own DHT node will (`bindAddress`, from
// --listen): bound to the default loopback, it could never reach a coordinator on another host (found on
// the emulated Internet: every volunteer off the coordinator's machine quit with "no token endpoint").
//
// A volunteer never gives up on a run it can reach (docs/emulated-internet.md, "Never giving up"): it looks
// until it hears of the endpoint or is cancelled, saying so each minute. Only a first join (`returning`
// false) that has reached no DHT node at all within kFirstTokenPatience ends, with an error about the
// address: the address may be wrong. One that was admitted before (a saved token) waits without end as well:
// its coordinator may be restarting, or this computer's line down (seen in a chaos run: restarted volunteers
// quit for good).
std::string discoverAuthEndpoint(const run::RunManifest& manifest, const QString& coordinator,
                                 const QString& bindAddress, bool returning,
                                 const std::atomic<bool>* cancel) {
    dht::DhtNodeOptions options;
    options.bindAddress = bindAddress;
    options.bootstrap = {coordinator};
    options.admission = dht::RecordAdmission{security::PeerId::fromHex(manifest.organiser), manifest.runId};
    options.watchClock = true;
    dht::DhtNode reader(options);
    collab::PeerBoard board(reader, manifest.runId);
    const auto start = std::chrono::steady_clock::now();
    auto nextWord = start + kFirstTokenPatience;
    bool reached = false;
    std::string
        clockWord; // the last word said about this computer's clock (its figures vary: said once a minute)
    while (!cancelled(cancel)) {
        if (reader.connectedNodeCount() > 0) {
            reached = true;
            for (const collab::PeerAnnouncement& peer : board.fetch(2s))
                if (peer.coordinator && !peer.authEndpoint.empty())
                    return peer.authEndpoint;
        }
        const auto now = std::chrono::steady_clock::now();
        // A clock minutes off finds records, but none it may take: it is told at once, and each minute.
        if (const std::string clock = dht::ClockEvidence::problem(reader.freshestRecordOffsetsMs());
            reached && !clock.empty() && (clockWord.empty() || now >= nextWord)) {
            qWarning("%s", clock.c_str());
            clockWord = clock;
            nextWord = now + kFirstTokenPatience;
        }
        if (now >= nextWord) {
            if (!reached && !returning)
                throw VolunteerAdmission::Failure(
                    JoinProblem::OrganiserUnreachable,
                    "no token endpoint: no DHT node answered at the coordinator's address " +
                        coordinator.toStdString() +
                        " within a minute (is the address right?), and the run names none");
            nextWord = now + kFirstTokenPatience;
            qWarning(
                "still looking for the coordinator's token endpoint after %lld min (%s): the coordinator "
                "at %s may be restarting, or this computer's line down",
                static_cast<long long>(std::chrono::duration_cast<std::chrono::minutes>(now - start).count()),
                reached ? "the DHT answers, the coordinator's record is not there" : "no DHT node answers",
                qUtf8Printable(coordinator));
        }
        std::this_thread::sleep_for(500ms);
    }
    return {};
}

// `bytes` (a saved token) when it is a token of `organiser` for `runId`, for this peer's keys, the user
// and the role asked for now, valid now; else empty.
QByteArray usableSavedToken(const QByteArray& bytes, const security::PeerId& organiser, const QString& runId,
                            const security::PeerIdentity& identity, const security::CurveKeyPair& curve,
                            const admission::TokenClient::Request& wanted) {
    try {
        const security::AccessToken parsed = security::AccessToken::fromBytes(bytes);
        if (!parsed.check(organiser, runId, QDateTime::currentSecsSinceEpoch()).isEmpty() ||
            parsed.peer() != identity.id() || parsed.curvePublicKey() != curve.publicKey() ||
            parsed.username() != wanted.username || parsed.role() != wanted.role)
            return {};
        return bytes;
    } catch (const std::invalid_argument&) {
        return {};
    }
}

} // namespace

std::string VolunteerAdmission::admit(PeerOptions& options, const QString& identityDir,
                                      Credentials credentials, const QString& coordinator,
                                      const std::atomic<bool>* cancel) {
    const run::RunManifest& manifest = options.manifest;
    if (manifest.organiser.isEmpty() || manifest.authCurveKey.isEmpty())
        throw std::invalid_argument(
            "the run names no organiser or no token endpoint key (auth_curve_key): ask "
            "its organiser for a join file from a current sahaj-node run-init");
    const auto identity = options.link.identity;
    auto curve =
        std::make_shared<const security::CurveKeyPair>(security::CurveKeyPair::loadOrCreate(identityDir));
    const security::PeerId organiser = security::PeerId::fromHex(manifest.organiser);

    std::string endpoint = credentials.endpoint;
    if (endpoint.empty() && !manifest.authEndpoint.isEmpty())
        endpoint = "tcp://" + manifest.authEndpoint.toStdString();
    const bool issued = !credentials.issuedToken.isEmpty();

    admission::TokenClient::Request request;
    request.username = credentials.user.isEmpty() ? QStringLiteral("volunteer") : credentials.user;
    if (const QString problem = security::Username::problem(request.username.toUtf8()); !problem.isEmpty())
        throw std::invalid_argument("user name: " + problem.toStdString());
    request.secret = credentials.secret;
    request.curvePublicKey = curve->publicKey();
    request.role = tokenRole(options.link.role);

    // A token this peer was given before for this run (SavedToken), when no new secret or token is
    // offered: a restart rejoins without the password. One that no longer checks is simply not used.
    const SavedToken saved(identityDir, manifest.runId);
    QByteArray token;
    if (!issued && credentials.secret.isEmpty())
        if (const std::optional<QByteArray> bytes = saved.load())
            token = usableSavedToken(*bytes, organiser, manifest.runId, *identity, *curve, request);

    if (endpoint.empty() && !issued)
        endpoint = discoverAuthEndpoint(manifest, coordinator, options.link.dhtBindAddress, !token.isEmpty(),
                                        cancel);
    if (endpoint.empty() && !issued)
        throw std::runtime_error("joining was cancelled while looking for the coordinator's token endpoint");
    const auto clock = std::make_shared<net::CoordinatorClock>();
    // A renewal presents the current token instead of a secret; the exchange is noted in `clock`.
    const auto renewToken = [endpoint, manifest, identity, curve, request, clock](const QByteArray& current) {
        admission::TokenClient::Request renewal = request;
        renewal.secret.clear();
        renewal.currentToken = current;
        return requestToken(endpoint, manifest, *identity, *curve, std::move(renewal), *clock);
    };
    if (!token.isEmpty()) {
        // Renewed at once when the endpoint answers: a fresh token, and the coordinator's time for this
        // start (a client asks nothing else of the endpoint); used as it is when it does not.
        if (!endpoint.empty()) {
            try {
                token = renewToken(token);
            } catch (const std::exception& e) {
                qWarning("the saved access token was not renewed at start (%s): used as it is", e.what());
            }
        }
    } else if (issued) {
        token = credentials.issuedToken;
        const std::string source =
            credentials.tokenSource.isEmpty() ? "the token" : credentials.tokenSource.toStdString();
        try {
            const security::AccessToken parsed = security::AccessToken::fromBytes(token);
            const QString problem =
                parsed.check(organiser, manifest.runId, QDateTime::currentSecsSinceEpoch());
            if (!problem.isEmpty())
                throw std::invalid_argument(source + ": " + problem.toStdString());
            if (parsed.peer() != identity->id() || parsed.curvePublicKey() != curve->publicKey())
                throw std::invalid_argument(source +
                                            ": the token was issued for other keys than this peer's (" +
                                            identityDir.toStdString() + ")");
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            throw std::invalid_argument(what.rfind(source, 0) == 0 ? what : source + ": " + what);
        }
    } else {
        const auto start = std::chrono::steady_clock::now();
        const auto giveUpAt = start + kFirstTokenPatience;
        for (;;) {
            try {
                token = requestToken(endpoint, manifest, *identity, *curve, request, *clock);
                break;
            } catch (const admission::TokenRefused& e) {
                // A little more than asked, spread out: volunteers turned away together do not all
                // come back in the same second.
                const auto wait =
                    e.retryAfter() + std::chrono::milliseconds(QRandomGenerator::global()->bounded(2000));
                if (e.retryAfter().count() == 0 ||
                    std::chrono::steady_clock::now() + wait > start + kRateLimitPatience)
                    throw Failure(JoinProblem::OrganiserRefused,
                                  "the run's token endpoint refused this peer: " + std::string(e.what()),
                                  e.what());
                qWarning("the run's token endpoint is busy (%s): asking again in %lld s", e.what(),
                         static_cast<long long>(std::chrono::ceil<std::chrono::seconds>(wait).count()));
                if (!sleepUnlessCancelled(wait, cancel))
                    throw std::runtime_error("joining was cancelled while the token endpoint was busy");
            } catch (const admission::EndpointCall::NoAnswer& e) {
                if (cancelled(cancel))
                    throw;
                if (std::chrono::steady_clock::now() >= giveUpAt)
                    throw Failure(JoinProblem::OrganiserUnreachable, e.what());
            } catch (const std::runtime_error&) {
                if (std::chrono::steady_clock::now() >= giveUpAt || cancelled(cancel))
                    throw;
            }
        }
    }

    // Kept for the next start; a failure to keep it costs only the password next time.
    if (const QString problem = saved.save(token); !problem.isEmpty())
        qWarning("the access token was not kept for the next start: %s", qUtf8Printable(problem));
    LinkSecurity security;
    security.admission = {organiser, manifest.runId};
    security.curve = curve;
    security.token = token;
    security.clock = clock;
    tellClockOffset(*clock);
    if (!endpoint.empty())
        security.renew = [renewToken, saved, clock](const QByteArray& current) {
            QByteArray renewed = renewToken(current);
            tellClockOffset(*clock);
            // A few hundred bytes once in hours: written on the collaboration thread.
            if (const QString problem = saved.save(renewed); !problem.isEmpty())
                qWarning("the renewed access token was not kept for the next start: %s",
                         qUtf8Printable(problem));
            return renewed;
        };
    options.link.security = std::move(security);
    return endpoint;
}

std::shared_ptr<fetch::ShardMirror> VolunteerAdmission::coordinatorMirror(const PeerOptions& options,
                                                                          const std::string& endpoint) {
    if (endpoint.empty() || !options.link.security)
        return nullptr;
    return std::make_shared<admission::CoordinatorMirror>(admission::CoordinatorMirror::Access{
        endpoint, rawKey(options.manifest.authCurveKey), options.link.identity, options.link.security->curve,
        options.link.security->token, options.manifest.runId});
}

admission::ReachabilityClient::Answer VolunteerAdmission::askReachability(const PeerOptions& options,
                                                                          const std::string& endpoint,
                                                                          std::uint16_t port,
                                                                          std::chrono::milliseconds timeout) {
    if (!options.link.security || !options.link.identity)
        throw std::runtime_error("not admitted: nothing to present to the token endpoint");
    zmq::context_t context;
    const net::SocketFactory sockets =
        endpointSockets(context, *options.link.identity, *options.link.security->curve);
    return admission::ReachabilityClient::ask(sockets, endpoint, rawKey(options.manifest.authCurveKey),
                                              *options.link.identity, options.manifest.runId,
                                              options.link.security->token, port, timeout);
}

} // namespace sahaj::engine
