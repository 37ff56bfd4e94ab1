#include "core/admission/TokenRequestHandler.h"

#include "core/admission/WireRole.h"
#include "core/net/WireLimits.h"
#include "core/net/WireText.h"
#include "core/security/TokenRequestProof.h"

#include <QByteArray>

#include <algorithm>
#include <exception>

namespace sahaj::admission {

namespace {

constexpr std::int64_t kWindowMs =
    std::chrono::duration_cast<std::chrono::milliseconds>(TokenRequestHandler::kReplayWindow).count();

wire::TokenReply refusal(const QString& why) {
    wire::TokenReply reply;
    // Bounded like every text on the wire (WireText), and never empty.
    const QString text = why.isEmpty() ? QStringLiteral("refused") : why;
    reply.set_refusal(net::WireText::bounded(text));
    return reply;
}

security::TokenRequestProof::Fields proofFieldsOf(const wire::Envelope& request) {
    const wire::TokenRequest& body = request.token_request();
    security::TokenRequestProof::Fields fields;
    fields.runId = QString::fromStdString(request.run_id());
    fields.sender = security::PeerId::fromBytes(QByteArray::fromStdString(request.sender()));
    fields.username = QString::fromStdString(body.username());
    fields.curvePublicKey = QByteArray::fromStdString(body.curve_key());
    fields.role = tokenRoleOf(body.role()).value_or(security::AccessToken::Role::Coordinator);
    fields.currentToken = QByteArray::fromStdString(body.current_token());
    fields.timestampMs = request.timestamp_ms();
    fields.nonce = QByteArray::fromStdString(request.nonce());
    return fields;
}

} // namespace

TokenRequestHandler::TokenRequestHandler(security::TokenAuthority authority, Log log,
                                         std::size_t rememberedRequests)
    : authority_(std::move(authority)), log_(std::move(log)), replays_(kWindowMs, rememberedRequests) {}

QString TokenRequestHandler::screen(const wire::Envelope& request, const std::string& connectionUser,
                                    std::int64_t nowMs) {
    const wire::TokenRequest& body = request.token_request();
    if (connectionUser != QByteArray::fromStdString(body.curve_key()).toHex().toStdString())
        return QStringLiteral("the request names another CURVE key than its connection");

    // Unsigned arithmetic: a hostile timestamp may be anything up to 2^64 - 1.
    const std::uint64_t sent = request.timestamp_ms();
    const auto now = static_cast<std::uint64_t>(nowMs);
    const std::uint64_t skew = sent > now ? sent - now : now - sent;
    if (skew > static_cast<std::uint64_t>(kWindowMs))
        return QStringLiteral("the request's timestamp is %1 s %2 the endpoint's clock (at most %3 s "
                              "allowed): check the computer's clock")
            .arg(skew / 1000)
            .arg(sent > now ? QStringLiteral("ahead of") : QStringLiteral("behind"))
            .arg(kReplayWindow.count());

    const security::TokenRequestProof::Fields fields = proofFieldsOf(request);
    if (!security::TokenRequestProof::verify(fields.sender, fields, QByteArray::fromStdString(body.proof())))
        return QStringLiteral("the request's proof is not the sender's signature of the request");

    switch (replays_.check(request.sender(), request.nonce(), nowMs)) {
    case ReplayGuard::Verdict::Fresh:
        return {};
    case ReplayGuard::Verdict::Replayed:
        return QStringLiteral("the request was already served (replayed nonce)");
    case ReplayGuard::Verdict::Full:
        break;
    }
    return QStringLiteral("the token endpoint is busy: try again in a minute");
}

wire::TokenReply TokenRequestHandler::decide(const wire::Envelope& request, const QString& connectionAddress,
                                             std::int64_t nowMs) {
    const wire::TokenRequest& body = request.token_request();
    const std::optional<security::AccessToken::Role> role = tokenRoleOf(body.role());
    if (!role)
        return refusal(QStringLiteral("a volunteer may ask for the node, client or auxiliary role only"));
    security::TokenAuthority::Request asked;
    asked.username = QString::fromStdString(body.username());
    asked.secret = QByteArray::fromStdString(body.secret());
    asked.peer = security::PeerId::fromBytes(QByteArray::fromStdString(request.sender()));
    asked.curvePublicKey = QByteArray::fromStdString(body.curve_key());
    asked.role = *role;
    asked.address = connectionAddress;
    if (!body.current_token().empty()) {
        try {
            asked.current = security::AccessToken::fromBytes(QByteArray::fromStdString(body.current_token()));
        } catch (const std::exception& e) {
            return refusal(QStringLiteral("cannot renew: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    const security::TokenAuthority::Decision decision = authority_.decide(asked, nowMs);
    if (const QString problem = authority_.listProblem(); log_ && problem != loggedListProblem_) {
        if (!problem.isEmpty())
            log_(QStringLiteral("token endpoint: cannot read a changed list: %1").arg(problem));
        loggedListProblem_ = problem;
    }
    if (!decision.token) {
        wire::TokenReply reply = refusal(decision.refusal);
        if (decision.retryAfterMs > 0)
            reply.set_retry_after_seconds(static_cast<std::uint32_t>(std::min<qint64>(
                (decision.retryAfterMs + 999) / 1000, net::WireLimits::kMaxRetryAfterSeconds)));
        return reply;
    }
    wire::TokenReply reply;
    reply.set_token(decision.token->toBytes().toStdString());
    return reply;
}

wire::TokenReply TokenRequestHandler::answer(const wire::Envelope& request, const std::string& connectionUser,
                                             const QString& connectionAddress, std::int64_t nowMs) {
    try {
        if (!request.has_token_request())
            return refusal(QStringLiteral("the token endpoint answers token requests only"));
        if (const QString refused = screen(request, connectionUser, nowMs); !refused.isEmpty())
            return refusal(refused);
        wire::TokenReply reply = decide(request, connectionAddress, nowMs);
        // Only a served request is remembered (ReplayGuard::check): the screen just found room for it.
        if (!reply.token().empty())
            replays_.admit(request.sender(), request.nonce(),
                           static_cast<std::int64_t>(request.timestamp_ms()), nowMs);
        return reply;
    } catch (const std::exception& e) {
        // The invite file could not be rewritten, say: the endpoint keeps serving, the organiser reads
        // the details (which may name files) in the log, the requester only that it was not its fault.
        if (log_)
            log_(QStringLiteral("token endpoint: cannot decide a request: %1")
                     .arg(QString::fromUtf8(e.what())));
        return refusal(QStringLiteral("the token endpoint could not decide the request: try again later"));
    }
}

bool TokenRequestHandler::revoked(const std::string& sender) {
    if (sender.size() != std::size_t(security::PeerId::kSize))
        return false;
    return authority_.revoked(security::PeerId::fromBytes(QByteArray::fromStdString(sender)));
}

} // namespace sahaj::admission
