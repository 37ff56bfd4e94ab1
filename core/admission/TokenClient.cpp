#include "core/admission/TokenClient.h"

#include "core/admission/EndpointCall.h"
#include "core/admission/TokenRefused.h"
#include "core/admission/WireRole.h"
#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/net/WireLimits.h"
#include "core/security/PeerIdentity.h"
#include "core/security/TokenRequestProof.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <stdexcept>

namespace sahaj::admission {

namespace {

QByteArray randomNonce() {
    QByteArray nonce(net::WireLimits::kTokenNonceBytes, Qt::Uninitialized);
    // The system generator: a nonce an observer could predict could be served before the real request.
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(nonce.data()),
                                          net::WireLimits::kTokenNonceBytes / sizeof(quint32));
    return nonce;
}

std::string stdString(const QByteArray& bytes) {
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

// The one frame of a TokenRequest. Built by hand rather than by MessageCodec::encode, which stamps its own
// timestamp: the proof must sign the timestamp that is sent.
zmq::message_t requestFrame(const security::PeerIdentity& identity, const QString& runId,
                            const TokenClient::Request& request, wire::Role role, std::uint64_t requestId) {
    security::TokenRequestProof::Fields fields;
    fields.runId = runId;
    fields.sender = identity.id();
    fields.username = request.username;
    fields.curvePublicKey = request.curvePublicKey;
    fields.role = request.role;
    fields.currentToken = request.currentToken;
    fields.timestampMs = static_cast<std::uint64_t>(QDateTime::currentMSecsSinceEpoch());
    fields.nonce = randomNonce();

    wire::Envelope envelope;
    envelope.set_version(net::WireLimits::kProtocolVersion);
    envelope.set_run_id(runId.toStdString());
    envelope.set_sender(stdString(identity.id().bytes()));
    envelope.set_request_id(requestId);
    envelope.set_timestamp_ms(fields.timestampMs);
    envelope.set_nonce(stdString(fields.nonce));
    wire::TokenRequest* body = envelope.mutable_token_request();
    body->set_username(request.username.toStdString());
    body->set_secret(stdString(request.secret));
    body->set_curve_key(stdString(request.curvePublicKey));
    body->set_role(role);
    body->set_current_token(stdString(request.currentToken));
    body->set_proof(stdString(security::TokenRequestProof::sign(identity, fields)));
    const std::string bytes = envelope.SerializeAsString();
    return zmq::message_t(bytes.data(), bytes.size());
}

// The reply's token, checked against what was asked: a token that would not admit this peer is useless,
// and one the organiser did not sign is a forgery.
QByteArray checkedToken(const std::string& bytes, const security::PeerIdentity& identity,
                        const QString& runId, const security::PeerId& organiser,
                        const TokenClient::Request& request) {
    const auto unusable = [](const QString& why) {
        return std::runtime_error(("the token endpoint returned an unusable token: " + why).toStdString());
    };
    const QByteArray wireForm = QByteArray::fromStdString(bytes);
    std::optional<security::AccessToken> token;
    try {
        token = security::AccessToken::fromBytes(wireForm);
    } catch (const std::invalid_argument& e) {
        throw unusable(QString::fromUtf8(e.what()));
    }
    if (const QString problem = token->check(organiser, runId, QDateTime::currentMSecsSinceEpoch() / 1000);
        !problem.isEmpty())
        throw unusable(problem);
    if (token->peer() != identity.id())
        throw unusable(QStringLiteral("it names peer %1, not this peer").arg(token->peer().shortHex()));
    if (token->curvePublicKey() != request.curvePublicKey)
        throw unusable(QStringLiteral("it names another CURVE key"));
    if (token->role() != request.role)
        throw unusable(QStringLiteral("it grants the %1 role, not %2")
                           .arg(security::AccessToken::roleName(token->role()),
                                security::AccessToken::roleName(request.role)));
    if (token->username() != request.username)
        throw unusable(QStringLiteral("it names user '%1'").arg(token->username()));
    return wireForm;
}

} // namespace

QByteArray TokenClient::request(const net::SocketFactory& sockets, const std::string& endpoint,
                                const std::string& serverCurveKey, const security::PeerIdentity& identity,
                                const QString& runId, const security::PeerId& organiser, Request request,
                                std::chrono::milliseconds timeout, net::CoordinatorClock* clock) {
    const std::optional<wire::Role> role = wireRoleOf(request.role);
    if (!role)
        throw std::invalid_argument("a volunteer may ask for the node, client or auxiliary role only");
    if (request.curvePublicKey.size() != static_cast<qsizetype>(net::WireLimits::kCurveKeyBytes))
        throw std::invalid_argument("the request's CURVE public key must have " +
                                    std::to_string(net::WireLimits::kCurveKeyBytes) + " bytes");
    // Replies are decoded as this peer in this run: another run's reply is a protocol violation.
    const net::MessageCodec codec(runId.toStdString(), stdString(identity.id().bytes()));
    const std::uint64_t requestId = QRandomGenerator::system()->generate64();

    std::vector<zmq::message_t> frames;
    frames.push_back(requestFrame(identity, runId, request, *role, requestId));
    const net::WireMessage reply = EndpointCall::exchange(sockets, endpoint, serverCurveKey, codec,
                                                          std::move(frames), requestId, timeout, clock);
    if (reply.envelope.has_error())
        throw TokenRefused("the token endpoint rejected the request: " +
                           net::LogText::utf8(reply.envelope.error().message(), 500));
    if (!reply.envelope.has_token_reply())
        throw std::runtime_error("the token endpoint answered with something other than a token reply");
    const wire::TokenReply& answer = reply.envelope.token_reply();
    if (!answer.refusal().empty()) {
        // Checked in meaning: a wait longer than any rate window is a fault of the endpoint's.
        if (answer.retry_after_seconds() > net::WireLimits::kMaxRetryAfterSeconds)
            throw std::runtime_error("the token endpoint asked to wait " +
                                     std::to_string(answer.retry_after_seconds()) +
                                     " s, longer than any rate limit lasts");
        throw TokenRefused(net::LogText::utf8(answer.refusal(), 500),
                           std::chrono::seconds(answer.retry_after_seconds()));
    }
    return checkedToken(answer.token(), identity, runId, organiser, request);
}

} // namespace sahaj::admission
