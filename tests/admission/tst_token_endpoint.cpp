// The coordinator's token endpoint over real CURVE sockets on loopback: a TokenServer with a ZapHandler
// on its context, volunteers on another context. Tokens come back bound to the asker's keys under each
// policy; requests for another key, replayed, stale or unproven are refused; garbage is answered or
// dropped without stopping the server; a client gives up cleanly on an endpoint that never answers.
#include "core/admission/ReplayGuard.h"
#include "core/admission/RequesterAddress.h"
#include "core/admission/TokenClient.h"
#include "core/admission/TokenRefused.h"
#include "core/admission/TokenRequestHandler.h"
#include "core/admission/TokenServer.h"
#include "core/net/MessageCodec.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"
#include "core/net/WireLimits.h"
#include "core/net/ZapHandler.h"
#include "core/security/AccessToken.h"
#include "core/security/AllowList.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/InviteList.h"
#include "core/security/PeerIdentity.h"
#include "core/security/TokenAuthority.h"
#include "core/security/TokenRequestProof.h"
#include "tests/common/TestFiles.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <mutex>
#include <optional>
#include <thread>

using namespace sahaj;
using namespace sahaj::admission;
using namespace sahaj::security;
using namespace std::chrono_literals;
using sahaj::test::errorOf;

namespace token_endpoint {

const QString kRun = QStringLiteral("bn-endpoint-1");

std::string stdString(const QByteArray& bytes) {
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

std::uint64_t nowMs() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

net::SocketFactory::Curve curveOf(const CurveKeyPair& keys, const char* zapDomain = "") {
    return {stdString(keys.publicKey()), stdString(keys.secretKey()), zapDomain};
}

// A volunteer: its identity, its CURVE pair, and its sockets on the volunteers' context.
struct Volunteer {
    explicit Volunteer(zmq::context_t& context)
        : sockets(context, stdString(identity.id().bytes()), net::SocketFactory::Options{},
                  net::SocketFactory::Curve{stdString(curve.publicKey()), stdString(curve.secretKey()),
                                            net::ZapHandler::runDomain(kRun.toStdString())}) {}

    TokenClient::Request request(const QString& user, const QByteArray& secret = {}) const {
        TokenClient::Request r;
        r.username = user;
        r.secret = secret;
        r.curvePublicKey = curve.publicKey();
        return r;
    }

    const PeerIdentity identity = PeerIdentity::generate();
    const CurveKeyPair curve = CurveKeyPair::generate();
    const net::SocketFactory sockets;
};

// The refusal text of the TokenRefused `action` throws; nullopt when it throws nothing. Any other
// exception escapes and fails the test.
template <typename Action>
std::optional<QString> refusalOf(Action&& action) {
    try {
        action();
    } catch (const TokenRefused& e) {
        return QString::fromStdString(e.what());
    }
    return std::nullopt;
}

// A TokenRequest's one frame, built by hand so that each field (timestamp, proof) can be spoilt. `signer`
// signs the proof (the sender's identity for a good one).
std::string requestBytes(const Volunteer& v, std::uint64_t timestampMs, const PeerIdentity& signer,
                         const QByteArray& nonce = QByteArray(16, '\x42'), std::uint64_t requestId = 7) {
    TokenRequestProof::Fields fields;
    fields.runId = kRun;
    fields.sender = v.identity.id();
    fields.username = QStringLiteral("rahim");
    fields.curvePublicKey = v.curve.publicKey();
    fields.role = AccessToken::Role::Node;
    fields.timestampMs = timestampMs;
    fields.nonce = nonce;

    wire::Envelope envelope;
    envelope.set_version(net::WireLimits::kProtocolVersion);
    envelope.set_run_id(kRun.toStdString());
    envelope.set_sender(stdString(v.identity.id().bytes()));
    envelope.set_request_id(requestId);
    envelope.set_timestamp_ms(timestampMs);
    envelope.set_nonce(stdString(nonce));
    wire::TokenRequest* body = envelope.mutable_token_request();
    body->set_username("rahim");
    body->set_curve_key(stdString(v.curve.publicKey()));
    body->set_role(wire::ROLE_NODE);
    body->set_proof(stdString(signer.sign(TokenRequestProof::bytes(fields))));
    return envelope.SerializeAsString();
}

// A signed TokenRequest from `identity` for the CURVE key `curveKey` as the user `user`, renewing `current`
// when it is not empty.
wire::Envelope signedRequest(const PeerIdentity& identity, const QByteArray& curveKey, const QString& user,
                             const QByteArray& nonce, const QByteArray& current = {}) {
    TokenRequestProof::Fields fields;
    fields.runId = kRun;
    fields.sender = identity.id();
    fields.username = user;
    fields.curvePublicKey = curveKey;
    fields.role = AccessToken::Role::Node;
    fields.currentToken = current;
    fields.timestampMs = nowMs();
    fields.nonce = nonce;
    wire::Envelope envelope;
    envelope.set_version(net::WireLimits::kProtocolVersion);
    envelope.set_run_id(kRun.toStdString());
    envelope.set_sender(stdString(identity.id().bytes()));
    envelope.set_request_id(1);
    envelope.set_timestamp_ms(fields.timestampMs);
    envelope.set_nonce(stdString(nonce));
    wire::TokenRequest* body = envelope.mutable_token_request();
    body->set_username(user.toStdString());
    body->set_curve_key(stdString(curveKey));
    body->set_role(wire::ROLE_NODE);
    body->set_current_token(stdString(current));
    body->set_proof(stdString(identity.sign(TokenRequestProof::bytes(fields))));
    return envelope;
}

// Sends `frames` (as one message) on `dealer` and returns the decoded answer; fails the run on silence.
wire::Envelope exchange(zmq::socket_t& dealer, const Volunteer& v, const std::vector<std::string>& frames) {
    std::vector<zmq::message_t> message;
    for (const std::string& frame : frames)
        message.emplace_back(frame.data(), frame.size());
    if (!net::MessageCodec::send(dealer, message))
        qFatal("the request could not be sent");
    auto reply = net::MessageCodec::receive(dealer, 10s);
    if (!reply)
        qFatal("the token endpoint did not answer within 10 s");
    return net::MessageCodec(kRun.toStdString(), stdString(v.identity.id().bytes()))
        .decode(std::move(*reply))
        .envelope;
}

} // namespace token_endpoint

using namespace token_endpoint;

class TestTokenEndpoint : public QObject {
    Q_OBJECT

    zmq::context_t serverContext_;
    zmq::context_t volunteerContext_;
    net::ZapHandler zap_{serverContext_, net::ZapHandler::runDomain(kRun.toStdString())};
    const PeerIdentity organiser_ = PeerIdentity::generate();
    const CurveKeyPair serverCurve_ = CurveKeyPair::generate();
    QTemporaryDir dir_;
    std::mutex logMutex_; // the server's thread writes the log
    QStringList log_;

    std::unique_ptr<TokenServer> startServer(const QString& policy) {
        TokenAuthority::Options options;
        options.runId = kRun;
        options.lifetimeSeconds = 3600;
        return std::make_unique<TokenServer>(serverContext_, curveOf(serverCurve_), "tcp://127.0.0.1:0",
                                             TokenAuthority::fromPolicy(policy, organiser_, options),
                                             organiser_.id(), kRun, [this](const QString& line) {
                                                 const std::lock_guard lock(logMutex_);
                                                 log_ << line;
                                             });
    }

    QByteArray ask(const TokenServer& server, const Volunteer& v, const TokenClient::Request& request,
                   std::chrono::milliseconds timeout = 10s) {
        return TokenClient::request(v.sockets, server.endpoint(), stdString(serverCurve_.publicKey()),
                                    v.identity, kRun, organiser_.id(), request, timeout);
    }

    zmq::socket_t rawDealer(const TokenServer& server, const Volunteer& v) {
        return v.sockets.connectDealer(server.endpoint(), stdString(serverCurve_.publicKey()));
    }

    bool logged(const QString& needle) {
        const std::lock_guard lock(logMutex_);
        return !log_.filter(needle).isEmpty();
    }

private Q_SLOTS:
    void openPolicyIssuesATokenBoundToTheClientsKeys() {
        const auto server = startServer("open");
        QVERIFY(server->endpoint().rfind("tcp://127.0.0.1:", 0) == 0 &&
                server->endpoint() != "tcp://127.0.0.1:0");
        const Volunteer v(volunteerContext_);
        TokenClient::Request request = v.request("rahim");
        request.role = AccessToken::Role::Client;
        const AccessToken token = AccessToken::fromBytes(ask(*server, v, request));
        QCOMPARE(token.check(organiser_.id(), kRun, static_cast<qint64>(nowMs() / 1000)), QString());
        QCOMPARE(token.peer(), v.identity.id());
        QCOMPARE(token.curvePublicKey(), v.curve.publicKey());
        QCOMPARE(token.role(), AccessToken::Role::Client);
        QCOMPARE(token.username(), QString("rahim"));
        QVERIFY(logged("issued a token to peer " + v.identity.id().toHex()));
    }

    void allowListNeedsTheRightPassword() {
        const QString file = dir_.filePath("users.txt");
        AllowList::addUser(file, "rahim", "correct horse", AllowList::Cost{1, 1024, 1});
        const auto server = startServer("allowlist:" + file);
        const Volunteer v(volunteerContext_);
        QVERIFY(!ask(*server, v, v.request("rahim", "correct horse")).isEmpty());
        QCOMPARE(refusalOf([&] { ask(*server, v, v.request("rahim", "wrong")); }),
                 std::optional<QString>("unknown user or wrong password"));
        QCOMPARE(refusalOf([&] { ask(*server, v, v.request("karim", "correct horse")); }),
                 std::optional<QString>("unknown user or wrong password"));
    }

    void anInviteIsRedeemedOnceAndRenewalNeedsNone() {
        const QString file = dir_.filePath("invites.txt");
        const QByteArray code = InviteList::addInvites(file, 1).front().toUtf8();
        const auto server = startServer("invites:" + file);
        const Volunteer first(volunteerContext_);
        const Volunteer second(volunteerContext_);
        const QByteArray token = ask(*server, first, first.request("rahim", code));
        QCOMPARE(InviteList::open(file).unusedCount(), 0);
        const auto reused = refusalOf([&] { ask(*server, second, second.request("karim", code)); });
        QVERIFY(reused && reused->contains("already used"));

        // Renewal: the current token for the same keys, user and role, and no code at all.
        TokenClient::Request renewal = first.request("rahim");
        renewal.currentToken = token;
        const AccessToken renewed = AccessToken::fromBytes(ask(*server, first, renewal));
        QCOMPARE(renewed.peer(), first.identity.id());
        // Someone else's token renews nothing.
        TokenClient::Request stolen = second.request("rahim");
        stolen.currentToken = token;
        const auto refused = refusalOf([&] { ask(*server, second, stolen); });
        QVERIFY2(refused && refused->contains("other keys"), qPrintable(refused.value_or("no refusal")));
        // Nor does garbage in its place.
        TokenClient::Request garbled = first.request("rahim");
        garbled.currentToken = "not a token";
        const auto malformed = refusalOf([&] { ask(*server, first, garbled); });
        QVERIFY(malformed && malformed->contains("cannot renew: malformed access token"));
    }

    void aRequestForAnotherCurveKeyIsRefused() {
        const auto server = startServer("open");
        const Volunteer v(volunteerContext_);
        TokenClient::Request request = v.request("rahim");
        request.curvePublicKey = CurveKeyPair::generate().publicKey();
        QCOMPARE(refusalOf([&] { ask(*server, v, request); }),
                 std::optional<QString>("the request names another CURVE key than its connection"));
    }

    void aReplayedRequestIsRefused() {
        const auto server = startServer("open");
        const Volunteer v(volunteerContext_);
        zmq::socket_t dealer = rawDealer(*server, v);
        const std::string request = requestBytes(v, nowMs(), v.identity);
        const wire::Envelope first = exchange(dealer, v, {request});
        QVERIFY2(!first.token_reply().token().empty(), first.token_reply().refusal().c_str());
        QCOMPARE(first.request_id(), std::uint64_t(7));
        const wire::Envelope again = exchange(dealer, v, {request});
        QVERIFY(again.token_reply().token().empty());
        QCOMPARE(again.token_reply().refusal(),
                 std::string("the request was already served (replayed nonce)"));
        // The same request with a fresh nonce (and so a fresh proof) is served.
        const wire::Envelope fresh =
            exchange(dealer, v, {requestBytes(v, nowMs(), v.identity, QByteArray(16, 'n'))});
        QVERIFY2(!fresh.token_reply().token().empty(), fresh.token_reply().refusal().c_str());
    }

    void aTimestampTenMinutesOffIsRefused() {
        const auto server = startServer("open");
        const Volunteer v(volunteerContext_);
        zmq::socket_t dealer = rawDealer(*server, v);
        const std::uint64_t tenMinutes = 10 * 60 * 1000;
        const wire::Envelope behind =
            exchange(dealer, v, {requestBytes(v, nowMs() - tenMinutes, v.identity)});
        QVERIFY2(
            QString::fromStdString(behind.token_reply().refusal()).contains("behind the endpoint's clock"),
            behind.token_reply().refusal().c_str());
        const wire::Envelope ahead =
            exchange(dealer, v, {requestBytes(v, nowMs() + tenMinutes, v.identity, QByteArray(16, 'a'))});
        QVERIFY2(
            QString::fromStdString(ahead.token_reply().refusal()).contains("ahead of the endpoint's clock"),
            ahead.token_reply().refusal().c_str());
        // The far end of the range: no overflow, just a refusal.
        const wire::Envelope absurd =
            exchange(dealer, v, {requestBytes(v, ~std::uint64_t{0}, v.identity, QByteArray(16, 'z'))});
        QVERIFY(QString::fromStdString(absurd.token_reply().refusal()).contains("ahead of"));
    }

    void aBadProofIsRefused() {
        const auto server = startServer("open");
        const Volunteer v(volunteerContext_);
        zmq::socket_t dealer = rawDealer(*server, v);
        const PeerIdentity impostor = PeerIdentity::generate();
        const wire::Envelope reply = exchange(dealer, v, {requestBytes(v, nowMs(), impostor)});
        QCOMPARE(reply.token_reply().refusal(),
                 std::string("the request's proof is not the sender's signature of the request"));
        QVERIFY(logged("refused peer " + v.identity.id().toHex()));
    }

    void garbageDoesNotStopTheServer() {
        const auto server = startServer("open");
        const Volunteer v(volunteerContext_);
        zmq::socket_t dealer = rawDealer(*server, v);

        // Not protobuf at all (field 0, wire type 7): an error reply.
        QVERIFY(exchange(dealer, v, {std::string("\xff\xff\xff\xff", 4)}).has_error());
        // An empty frame parses as an empty envelope, of protocol version 0.
        QVERIFY(QString::fromStdString(exchange(dealer, v, {std::string()}).error().message())
                    .contains("version"));
        // Three frames: dropped by the receiver before decoding; nothing comes back.
        std::vector<zmq::message_t> three;
        for (int i = 0; i < 3; ++i)
            three.emplace_back(std::string("x"));
        QVERIFY(net::MessageCodec::send(dealer, three));
        // A token request with a data frame, and one with a short nonce: refused by the validator.
        const std::string good = requestBytes(v, nowMs(), v.identity, QByteArray(16, 'g'));
        const wire::Envelope withData = exchange(dealer, v, {good, std::string("data")});
        QVERIFY2(QString::fromStdString(withData.error().message()).contains("data frame"),
                 withData.error().message().c_str());
        QCOMPARE(withData.request_id(), std::uint64_t(7));
        const wire::Envelope shortNonce =
            exchange(dealer, v, {requestBytes(v, nowMs(), v.identity, "short")});
        QVERIFY(QString::fromStdString(shortNonce.error().message()).contains("nonce must be 16 bytes"));
        QVERIFY(logged("malformed message from peer " + v.identity.id().toHex()));
        // Another body than a token request.
        wire::Envelope ping;
        ping.mutable_ping();
        const net::MessageCodec codec(kRun.toStdString(), stdString(v.identity.id().bytes()));
        std::vector<zmq::message_t> pingFrames = codec.encode(ping);
        const std::string pingBytes = pingFrames.front().to_string();
        QVERIFY(QString::fromStdString(exchange(dealer, v, {pingBytes}).error().message())
                    .contains("token, shard and reachability requests only"));

        // Still serving.
        QVERIFY(!ask(*server, v, v.request("rahim")).isEmpty());
    }

    void theClientGivesUpOnASilentEndpoint() {
        // A CURVE ROUTER that completes handshakes and never reads.
        const net::SocketFactory sockets(serverContext_, stdString(organiser_.id().bytes()),
                                         net::SocketFactory::Options{}, curveOf(serverCurve_, "unused"));
        zmq::socket_t silent = sockets.bindRouter("tcp://127.0.0.1:0", net::ZapHandler::kAdmissionDomain);
        const std::string endpoint = net::SocketFactory::boundEndpoint(silent);
        const Volunteer v(volunteerContext_);
        const auto askSilent = [&] {
            TokenClient::request(v.sockets, endpoint, stdString(serverCurve_.publicKey()), v.identity, kRun,
                                 organiser_.id(), v.request("rahim"), 300ms);
        };
        QCOMPARE(errorOf(askSilent), QString("no answer from the token endpoint %1 within 0.3 s")
                                         .arg(QString::fromStdString(endpoint)));
        // Nobody at all on the port: the handshake never completes, and sending gives up in time too.
        silent.close();
        QVERIFY(errorOf(askSilent).startsWith("no answer from the token endpoint"));
        // A server key that is not the endpoint's: the handshake fails, and so does the request.
        const auto server = startServer("open");
        const QString wrongKey = errorOf([&] {
            TokenClient::request(v.sockets, server->endpoint(),
                                 stdString(CurveKeyPair::generate().publicKey()), v.identity, kRun,
                                 organiser_.id(), v.request("rahim"), 300ms);
        });
        QVERIFY2(wrongKey.startsWith("no answer from the token endpoint"), qPrintable(wrongKey));
    }

    // A hostile endpoint that asks to wait longer than any rate window lasts (601 s): the client says it
    // is the endpoint's fault instead of waiting; 600 s is a wait it takes. Fails without the check in
    // TokenClient::request (the volunteer would sleep as long as the endpoint likes).
    void theClientRefusesAnEndlessWait() {
        const net::SocketFactory sockets(serverContext_, stdString(organiser_.id().bytes()),
                                         net::SocketFactory::Options{}, curveOf(serverCurve_, "unused"));
        zmq::socket_t liar = sockets.bindRouter("tcp://127.0.0.1:0", net::ZapHandler::kAdmissionDomain);
        const std::string endpoint = net::SocketFactory::boundEndpoint(liar);
        const net::MessageCodec codec(kRun.toStdString(), stdString(organiser_.id().bytes()));
        const auto answerWith = [&](std::uint32_t seconds) {
            return std::thread([&, seconds] {
                zmq::message_t route;
                std::optional<std::vector<zmq::message_t>> frames =
                    net::MessageCodec::receive(liar, 5000ms, &route);
                if (!frames)
                    return;
                wire::Envelope reply;
                reply.set_request_id(codec.decode(std::move(*frames)).envelope.request_id());
                reply.mutable_token_reply()->set_refusal("busy");
                reply.mutable_token_reply()->set_retry_after_seconds(seconds);
                std::vector<zmq::message_t> out = codec.encode(std::move(reply));
                net::MessageCodec::send(liar, out, &route);
            });
        };
        const Volunteer v(volunteerContext_);
        const auto askLiar = [&] {
            TokenClient::request(v.sockets, endpoint, stdString(serverCurve_.publicKey()), v.identity, kRun,
                                 organiser_.id(), v.request("rahim"), 5000ms);
        };
        std::thread endless = answerWith(net::WireLimits::kMaxRetryAfterSeconds + 1);
        const QString error = errorOf(askLiar);
        endless.join();
        QVERIFY2(error.contains("longer than any rate limit lasts"), qPrintable(error));
        std::thread longest = answerWith(net::WireLimits::kMaxRetryAfterSeconds);
        try {
            askLiar();
            QFAIL("a refusal was taken for a token");
        } catch (const TokenRefused& e) {
            QCOMPARE(e.retryAfter(), std::chrono::seconds(net::WireLimits::kMaxRetryAfterSeconds));
        }
        longest.join();
    }

    void theValidatorBoundsTokenMessages() {
        const std::vector<zmq::message_t> none;
        wire::Envelope reply;
        reply.mutable_token_reply();
        QVERIFY(errorOf([&] {
                    net::MessageValidator::validate(reply, none);
                }).contains("either a token or a refusal"));
        reply.mutable_token_reply()->set_token("t");
        reply.mutable_token_reply()->set_refusal("no");
        QVERIFY(errorOf([&] {
                    net::MessageValidator::validate(reply, none);
                }).contains("either a token or a refusal"));
        reply.mutable_token_reply()->clear_refusal();
        net::MessageValidator::validate(reply, none);
        reply.mutable_token_reply()->set_token(std::string(net::WireLimits::kMaxTokenBytes + 1, 't'));
        QVERIFY(errorOf([&] { net::MessageValidator::validate(reply, none); }).contains("token_reply.token"));

        const Volunteer v(volunteerContext_);
        wire::Envelope request;
        QVERIFY(request.ParseFromString(requestBytes(v, nowMs(), v.identity)));
        net::MessageValidator::validate(request, none);
        const auto spoilt = [&](auto&& spoil) {
            wire::Envelope copy = request;
            spoil(*copy.mutable_token_request());
            return errorOf([&] { net::MessageValidator::validate(copy, none); });
        };
        QVERIFY(
            spoilt([](wire::TokenRequest& m) { m.set_username(std::string(65, 'u')); }).contains("username"));
        QVERIFY(
            spoilt([](wire::TokenRequest& m) { m.set_secret(std::string(257, 's')); }).contains("secret"));
        QVERIFY(spoilt([](wire::TokenRequest& m) {
                    m.set_curve_key(std::string(31, 'k'));
                }).contains("curve_key"));
        QVERIFY(spoilt([](wire::TokenRequest& m) { m.set_role(wire::ROLE_COORDINATOR); }).contains("role"));
        QVERIFY(spoilt([](wire::TokenRequest& m) {
                    m.set_current_token(std::string(1025, 't'));
                }).contains("current_token"));
        QVERIFY(spoilt([](wire::TokenRequest& m) { m.set_proof(std::string(63, 'p')); }).contains("proof"));

        wire::MemberInfo member;
        member.set_peer_id(std::string(32, 'p'));
        member.set_role(wire::ROLE_CLIENT);
        member.set_token(std::string(net::WireLimits::kMaxTokenBytes, 't'));
        net::MessageValidator::checkMember(member, "member");
        member.set_token(std::string(net::WireLimits::kMaxTokenBytes + 1, 't'));
        QVERIFY(
            errorOf([&] { net::MessageValidator::checkMember(member, "member"); }).contains("member.token"));
    }

    // A flood of requests the policy refuses must not fill the memory of served requests: an admitted
    // volunteer's renewal still goes through. (When every screened request was remembered, 100 refused
    // strangers filled a guard of 8 and the renewal got "the token endpoint is busy".)
    void refusedRequestsLeaveRoomForRenewals() {
        TokenAuthority::Options options;
        options.runId = kRun;
        options.openRequestsPerMinute = 3;
        options.openRequestsPerAddressPerMinute = 1000;
        TokenRequestHandler handler(TokenAuthority::fromPolicy("open", organiser_, options), {},
                                    /*rememberedRequests=*/8);
        const auto answer = [&](const PeerIdentity& who, const QByteArray& curveKey, const QByteArray& nonce,
                                const QByteArray& current = {}) {
            return handler.answer(signedRequest(who, curveKey, "rahim", nonce, current),
                                  curveKey.toHex().toStdString(), "127.0.0.1",
                                  static_cast<std::int64_t>(nowMs()));
        };
        const PeerIdentity volunteer = PeerIdentity::generate();
        const QByteArray volunteerKey(32, '\x11');
        const wire::TokenReply first = answer(volunteer, volunteerKey, QByteArray(16, 'a'));
        QVERIFY2(!first.token().empty(), first.refusal().c_str());
        int refused = 0;
        for (int i = 0; i < 100; ++i) {
            const wire::TokenReply reply = answer(PeerIdentity::generate(), QByteArray(32, '\x22'),
                                                  QByteArray(16, static_cast<char>(i)));
            refused += reply.token().empty() ? 1 : 0;
            // A rate limit passes: the reply says when to ask again, within the minute's window.
            if (reply.token().empty())
                QVERIFY(reply.retry_after_seconds() >= 1 && reply.retry_after_seconds() <= 60);
        }
        QCOMPARE(refused, 98); // 3 a minute: two more strangers were served
        const wire::TokenReply renewed =
            answer(volunteer, volunteerKey, QByteArray(16, 'b'), QByteArray::fromStdString(first.token()));
        QVERIFY2(!renewed.token().empty(), renewed.refusal().c_str());
        // Served requests are still remembered: the renewal cannot be replayed.
        QCOMPARE(
            answer(volunteer, volunteerKey, QByteArray(16, 'b'), QByteArray::fromStdString(first.token()))
                .refusal(),
            std::string("the request was already served (replayed nonce)"));
    }

    // The endpoint counts guesses per user name and connection address: a stranger who guesses from
    // 127.0.0.2 spends that address's attempts, and the user, from 127.0.0.1, still gets its token.
    void aGuesserFromAnotherAddressDoesNotLockTheUserOut() {
        const QString file = dir_.filePath("guessed-users.txt");
        AllowList::addUser(file, "rahim", "correct horse", AllowList::Cost{1, 1024, 1});
        const auto server = startServer("allowlist:" + file);
        const Volunteer guesser(volunteerContext_);
        // libzmq's "source;destination" form: the guesser's connection comes from 127.0.0.2.
        const std::string fromElsewhere = "tcp://127.0.0.2:0;" + server->endpoint().substr(6);
        const auto guess = [&](const QByteArray& password) {
            return refusalOf([&] {
                TokenClient::request(guesser.sockets, fromElsewhere, stdString(serverCurve_.publicKey()),
                                     guesser.identity, kRun, organiser_.id(),
                                     guesser.request("rahim", password), 10s);
            });
        };
        for (int i = 0; i < TokenAuthority::Options{}.attemptsPerUserPerMinute; ++i)
            QCOMPARE(guess("guess " + QByteArray::number(i)),
                     std::optional<QString>("unknown user or wrong password"));
        const std::optional<QString> locked = guess("correct horse");
        QVERIFY(locked && locked->contains("too many attempts"));
        const Volunteer user(volunteerContext_);
        QVERIFY(!ask(*server, user, user.request("rahim", "correct horse")).isEmpty());
    }

    // A frame larger than any request is dropped by libzmq before it is assembled (the endpoint's sockets
    // accept 64 KiB, not the data plane's 64 MiB): no answer, and the endpoint serves on.
    void aFrameLargerThanAnyRequestIsDropped() {
        const auto server = startServer("open");
        const Volunteer v(volunteerContext_);
        zmq::socket_t dealer = rawDealer(*server, v);
        std::vector<zmq::message_t> big;
        big.emplace_back(std::string(2 * TokenServer::kMaxRequestBytes, 'x'));
        QVERIFY(net::MessageCodec::send(dealer, big));
        QVERIFY(!net::MessageCodec::receive(dealer, 1s).has_value());
        QVERIFY(!ask(*server, v, v.request("rahim")).isEmpty());
    }

    // The allowance a request spends: an IPv4 address, an IPv6 address's /64 (one home's or server's
    // share), an IPv4-mapped address as its IPv4 address.
    void requestersAreCountedByAddressOrNetwork() {
        QCOMPARE(RequesterAddress::keyOf("127.0.0.2"), QString("127.0.0.2"));
        QCOMPARE(RequesterAddress::keyOf("::ffff:127.0.0.2"), QString("127.0.0.2"));
        QCOMPARE(RequesterAddress::keyOf("2001:db8:1:2:aaaa::1"), QString("2001:db8:1:2::/64"));
        QCOMPARE(RequesterAddress::keyOf("2001:db8:1:2:bbbb:cccc:dddd:eeee"), QString("2001:db8:1:2::/64"));
        QVERIFY(RequesterAddress::keyOf("2001:db8:1:3::1") != RequesterAddress::keyOf("2001:db8:1:2::1"));
        QCOMPARE(RequesterAddress::keyOf("::1"), QString("0:0:0:0::/64"));
        QCOMPARE(RequesterAddress::keyOf(""), QString());
    }

    void theReplayGuardForgetsOnlyWhatCanNoLongerPass() {
        ReplayGuard guard(/*windowMs=*/1000, /*capacity=*/2);
        const std::string a(32, 'a');
        QCOMPARE(guard.admit(a, "n1", 5000, 5000), ReplayGuard::Verdict::Fresh);
        QCOMPARE(guard.admit(a, "n1", 5000, 5500), ReplayGuard::Verdict::Replayed);
        QCOMPARE(guard.admit(std::string(32, 'b'), "n1", 5000, 5500),
                 ReplayGuard::Verdict::Fresh); // another sender
        QCOMPARE(guard.admit(a, "n2", 5000, 5500), ReplayGuard::Verdict::Full);
        // At timestamp + window a replay would still pass the timestamp check: still remembered.
        QCOMPARE(guard.admit(a, "n1", 5000, 6000), ReplayGuard::Verdict::Replayed);
        // After it, the timestamp check refuses the replay by itself: forgotten, and room again.
        QCOMPARE(guard.admit(a, "n2", 6001, 6001), ReplayGuard::Verdict::Fresh);
        QCOMPARE(guard.size(), std::size_t(1));
    }

    void theProofCoversEveryFieldButTheSecret() {
        const PeerIdentity peer = PeerIdentity::generate();
        TokenRequestProof::Fields fields;
        fields.runId = kRun;
        fields.sender = peer.id();
        fields.username = "rahim";
        fields.curvePublicKey = QByteArray(32, 'k');
        fields.timestampMs = 1'800'000'000'000;
        fields.nonce = QByteArray(16, 'n');
        const QByteArray proof = TokenRequestProof::sign(peer, fields);
        QCOMPARE(proof.size(), PeerIdentity::kSignatureSize);
        QVERIFY(TokenRequestProof::verify(peer.id(), fields, proof));
        QVERIFY(TokenRequestProof::bytes(fields).startsWith("sahaj-token-request-v1"));
        const auto changed = [&](auto&& change) {
            TokenRequestProof::Fields copy = fields;
            change(copy);
            return !TokenRequestProof::verify(peer.id(), copy, proof);
        };
        QVERIFY(changed([](auto& f) { f.runId = "other"; }));
        QVERIFY(changed([](auto& f) { f.username = "karim"; }));
        QVERIFY(changed([](auto& f) { f.curvePublicKey[0] = 'x'; }));
        QVERIFY(changed([](auto& f) { f.role = AccessToken::Role::Aux; }));
        QVERIFY(changed([](auto& f) { f.currentToken = "t"; }));
        QVERIFY(changed([](auto& f) { f.timestampMs += 1; }));
        QVERIFY(changed([](auto& f) { f.nonce[0] = 'x'; }));
        QVERIFY(changed([](auto& f) { f.sender = PeerIdentity::generate().id(); }));
        QVERIFY(
            errorOf([&] { TokenRequestProof::sign(PeerIdentity::generate(), fields); }).contains("sender"));
    }
};

QTEST_GUILESS_MAIN(TestTokenEndpoint)
#include "tst_token_endpoint.moc"
