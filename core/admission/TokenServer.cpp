#include "core/admission/TokenServer.h"

#include "core/admission/RequesterAddress.h"

#include "core/net/LogText.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/WireLimits.h"
#include "core/net/WireText.h"
#include "core/net/ZapHandler.h"

#include <QByteArray>
#include <QDateTime>

#include <exception>

namespace sahaj::admission {

namespace {

// The refusal a revoked peer gets for a shard or a dial, as for a token (TokenAuthority).
constexpr const char* kRevokedRefusal = "not admitted: the run's organiser revoked this peer";

QString hexOf(const std::string& bytes) {
    return QString::fromLatin1(QByteArray::fromStdString(bytes).toHex());
}

// Whom a message came from, for the log: the envelope's sender when the frame parses that far, else the
// connection's routing id (a DEALER's is its peer id, but a stranger chooses it), else nothing.
QString senderOf(const zmq::message_t& head, const zmq::message_t& route) {
    if (const std::string sender = net::MessageCodec::claimedSender(head); !sender.empty())
        return QStringLiteral("peer %1").arg(hexOf(sender));
    if (route.size() > 0 && route.size() <= net::WireLimits::kPeerIdBytes)
        return QStringLiteral("a connection with routing id %1").arg(hexOf(route.to_string()));
    return QStringLiteral("an unknown sender");
}

// The request id of a message that failed validation, so that its sender can match the error reply.
std::uint64_t requestIdOf(const zmq::message_t& head) {
    wire::Envelope probe;
    if (head.size() <= net::WireLimits::kMaxEnvelopeBytes &&
        probe.ParseFromArray(head.data(), static_cast<int>(head.size())))
        return probe.request_id();
    return 0;
}

net::SocketFactory::Curve onAdmissionDomain(net::SocketFactory::Curve curve) {
    curve.zapDomain = net::ZapHandler::kAdmissionDomain;
    return curve;
}

net::SocketFactory::Options requestSocketOptions() {
    net::SocketFactory::Options options;
    options.routerMaxMessageBytes = TokenServer::kMaxRequestBytes;
    options.receiveHighWaterMark = TokenServer::kMaxQueuedRequests;
    return options;
}

} // namespace

TokenServer::TokenServer(zmq::context_t& context, net::SocketFactory::Curve curve,
                         const std::string& listenEndpoint, security::TokenAuthority authority,
                         const security::PeerId& organiser, const QString& runId, Log log,
                         std::optional<ShardRequestHandler> shards)
    : codec_(runId.toStdString(), organiser.bytes().toStdString()), log_(std::move(log)),
      handler_(std::move(authority), log_), shards_(std::move(shards)), dialer_(organiser, runId) {
    const net::SocketFactory sockets(context, organiser.bytes().toStdString(), requestSocketOptions(),
                                     onAdmissionDomain(std::move(curve)));
    zmq::socket_t socket = sockets.bindRouter(listenEndpoint, net::ZapHandler::kAdmissionDomain);
    endpoint_ = net::SocketFactory::boundEndpoint(socket);
    thread_ = std::thread([this, socket = std::move(socket)]() mutable { serve(socket); });
}

void TokenServer::note(QString line) const {
    if (!log_)
        return;
    // Lines quote what strangers sent (user names, refusals naming them): no control character of theirs
    // may forge a line of the log or a terminal escape.
    for (QChar& c : line)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            c = QLatin1Char('?');
    log_(line);
}

TokenServer::~TokenServer() {
    stopping_ = true;
    thread_.join();
}

void TokenServer::serve(zmq::socket_t& socket) {
    while (!stopping_) {
        // While dials are under way, the socket is looked at often and the dials in between: neither
        // waits on the other.
        if (dialer_.busy())
            sendFinishedDials(socket, kDialPollInterval);
        zmq::message_t route;
        std::optional<std::vector<zmq::message_t>> frames;
        try {
            frames = net::MessageCodec::receive(socket, dialer_.busy() ? kDialPollInterval : kPollInterval,
                                                &route);
        } catch (const net::ProtocolViolation& e) {
            note(QStringLiteral("token endpoint: dropped a message from a connection with routing id %1: %2")
                     .arg(hexOf(route.to_string()), QString::fromUtf8(e.what())));
            continue;
        } catch (const zmq::error_t& e) {
            if (e.num() == ETERM)
                return; // the context is going away: nothing more will arrive
            note(QStringLiteral("token endpoint: receiving failed: %1").arg(QString::fromUtf8(e.what())));
            continue;
        }
        if (!frames || frames->empty())
            continue;
        try {
            handle(socket, route, std::move(*frames));
        } catch (const std::exception& e) {
            // Nothing a requester sends may stop the endpoint; whatever slipped through is logged.
            note(QStringLiteral("token endpoint: a request failed: %1").arg(QString::fromUtf8(e.what())));
        }
    }
}

void TokenServer::handle(zmq::socket_t& socket, const zmq::message_t& route,
                         std::vector<zmq::message_t> frames) {
    // The ZAP user id rides on every payload frame of the connection; read before decode() takes them.
    const std::string connectionUser = net::SocketFactory::authenticatedUser(frames.front());
    const std::string peerAddress = net::SocketFactory::peerAddress(frames.front());
    const QString connectionAddress = RequesterAddress::keyOf(peerAddress);
    zmq::message_t head;
    head.copy(frames.front()); // shares the bytes: kept to name the sender of a malformed message
    net::WireMessage request;
    try {
        request = codec_.decode(std::move(frames));
    } catch (const net::ProtocolViolation& e) {
        refuseMalformed(socket, route, head, e.what());
        return;
    }
    if (request.envelope.has_shard_request()) {
        serveShard(socket, route, request, connectionUser, handler_.revoked(request.envelope.sender()));
        return;
    }
    if (request.envelope.has_reachability_request()) {
        serveReachability(socket, route, request, connectionUser, peerAddress,
                          handler_.revoked(request.envelope.sender()));
        return;
    }
    if (!request.envelope.has_token_request()) {
        refuseMalformed(socket, route, head,
                        "the token endpoint answers token, shard and reachability requests only");
        return;
    }

    const QString sender = QStringLiteral("peer %1").arg(hexOf(request.envelope.sender()));
    wire::Envelope envelope;
    envelope.set_request_id(request.envelope.request_id());
    *envelope.mutable_token_reply() = handler_.answer(request.envelope, connectionUser, connectionAddress,
                                                      QDateTime::currentMSecsSinceEpoch());
    const QString user = net::LogText::of(request.envelope.token_request().username(), 64);
    if (envelope.token_reply().token().empty())
        note(QStringLiteral("token endpoint: refused %1 (user '%2'): %3")
                 .arg(sender, user, QString::fromStdString(envelope.token_reply().refusal())));
    else
        note(QStringLiteral("token endpoint: issued a token to %1 (user '%2')").arg(sender, user));
    reply(socket, route, std::move(envelope), sender);
}

void TokenServer::serveShard(zmq::socket_t& socket, const zmq::message_t& route,
                             const net::WireMessage& request, const std::string& connectionUser,
                             bool revoked) {
    const QString sender = QStringLiteral("peer %1").arg(hexOf(request.envelope.sender()));
    wire::Envelope envelope;
    envelope.set_request_id(request.envelope.request_id());
    std::vector<zmq::message_t> data;
    if (!shards_ || revoked) {
        wire::ShardData& refusal = *envelope.mutable_shard_data();
        refusal.set_sha256(request.envelope.shard_request().sha256());
        refusal.set_offset(request.envelope.shard_request().offset());
        refusal.set_total(1);
        refusal.set_refusal(revoked
                                ? kRevokedRefusal
                                : "this coordinator serves no data (it was started without --serve-data)");
        if (revoked)
            note(QStringLiteral("data mirror: refused %1: %2")
                     .arg(sender, QString::fromUtf8(kRevokedRefusal)));
    } else {
        ShardRequestHandler::Answer answer =
            shards_->answer(request.envelope, connectionUser, QDateTime::currentMSecsSinceEpoch() / 1000);
        if (!answer.reply.refusal().empty()) // a refused requester gives up: one line per try
            note(QStringLiteral("data mirror: refused %1: %2")
                     .arg(sender, QString::fromStdString(answer.reply.refusal())));
        if (!answer.bytes.isEmpty())
            data.emplace_back(answer.bytes.constData(), std::size_t(answer.bytes.size()));
        *envelope.mutable_shard_data() = std::move(answer.reply);
    }
    reply(socket, route, std::move(envelope), sender, std::move(data));
}

void TokenServer::serveReachability(zmq::socket_t& socket, const zmq::message_t& route,
                                    const net::WireMessage& request, const std::string& connectionUser,
                                    const std::string& peerAddress, bool revoked) {
    const QString sender = QStringLiteral("peer %1").arg(hexOf(request.envelope.sender()));
    std::optional<wire::ReachabilityReply> refused;
    if (revoked)
        refused.emplace().set_refusal(kRevokedRefusal);
    else
        refused = dialer_.request(request.envelope, connectionUser, peerAddress, route.to_string(),
                                  QDateTime::currentSecsSinceEpoch());
    if (!refused)
        return; // dialling: sendFinishedDials() answers
    note(QStringLiteral("token endpoint: did not dial %1 back: %2")
             .arg(sender, QString::fromStdString(refused->refusal())));
    wire::Envelope envelope;
    envelope.set_request_id(request.envelope.request_id());
    *envelope.mutable_reachability_reply() = std::move(*refused);
    reply(socket, route, std::move(envelope), sender);
}

void TokenServer::sendFinishedDials(zmq::socket_t& socket, std::chrono::milliseconds wait) {
    for (ReachabilityDialer::Finished& dial : dialer_.finished(wait)) {
        const QString sender = QStringLiteral("peer %1").arg(hexOf(dial.sender));
        note(QStringLiteral("token endpoint: dialled %1 back at %2 port %3: %4")
                 .arg(sender, QString::fromStdString(dial.reply.observed_address()))
                 .arg(dial.port)
                 .arg(dial.reply.reachable() ? QStringLiteral("reachable")
                                             : QString::fromStdString(dial.reply.detail())));
        wire::Envelope envelope;
        envelope.set_request_id(dial.requestId);
        *envelope.mutable_reachability_reply() = std::move(dial.reply);
        const zmq::message_t route(dial.route.data(), dial.route.size());
        reply(socket, route, std::move(envelope), sender);
    }
}

void TokenServer::refuseMalformed(zmq::socket_t& socket, const zmq::message_t& route,
                                  const zmq::message_t& head, const std::string& problem) {
    const QString sender = senderOf(head, route);
    note(QStringLiteral("token endpoint: malformed message from %1: %2")
             .arg(sender, QString::fromStdString(problem)));
    wire::Envelope envelope;
    envelope.set_request_id(requestIdOf(head));
    // Violation texts may quote the sender's bytes (a run id cut short, say): made valid UTF-8 and cut to
    // the wire's bound (WireText).
    envelope.mutable_error()->set_message(net::WireText::bounded(QString::fromStdString(problem)));
    reply(socket, route, std::move(envelope), sender);
}

void TokenServer::reply(zmq::socket_t& socket, const zmq::message_t& route, wire::Envelope envelope,
                        const QString& to, std::vector<zmq::message_t> data) {
    std::vector<zmq::message_t> frames = codec_.encode(std::move(envelope), std::move(data));
    // Never wait on a requester: one that does not read, or has gone, loses its answer.
    if (net::MessageCodec::trySend(socket, frames, &route, /*dontWait=*/true) !=
        net::MessageCodec::SendResult::Sent)
        note(
            QStringLiteral("token endpoint: could not send the answer to %1 (gone, or not reading)").arg(to));
}

} // namespace sahaj::admission
