#include "core/admission/ReachabilityClient.h"

#include "core/admission/EndpointCall.h"
#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/security/PeerIdentity.h"

#include <QRandomGenerator>

#include <zmq.hpp>

#include <stdexcept>

namespace sahaj::admission {

ReachabilityClient::Answer ReachabilityClient::ask(const net::SocketFactory& sockets,
                                                   const std::string& endpoint,
                                                   const std::string& serverCurveKey,
                                                   const security::PeerIdentity& identity,
                                                   const QString& runId, const QByteArray& token,
                                                   std::uint16_t port, std::chrono::milliseconds timeout) {
    const std::string peerId = identity.id().bytes().toStdString();
    const net::MessageCodec codec(runId.toStdString(), peerId);
    const std::uint64_t requestId = QRandomGenerator::system()->generate64();

    wire::Envelope envelope;
    envelope.set_request_id(requestId);
    wire::ReachabilityRequest& body = *envelope.mutable_reachability_request();
    body.set_port(port);
    body.set_token(token.toStdString());
    const net::WireMessage reply = EndpointCall::exchange(
        sockets, endpoint, serverCurveKey, codec, codec.encode(std::move(envelope)), requestId, timeout);
    if (reply.envelope.has_error())
        throw std::runtime_error("the token endpoint rejected the request: " +
                                 net::LogText::utf8(reply.envelope.error().message(), 500));
    if (!reply.envelope.has_reachability_reply())
        throw std::runtime_error(
            "the token endpoint answered with something other than a reachability reply");
    const wire::ReachabilityReply& answer = reply.envelope.reachability_reply();
    if (!answer.refusal().empty())
        throw std::runtime_error("the token endpoint did not dial back: " +
                                 net::LogText::utf8(answer.refusal(), 500));
    return {QString::fromStdString(answer.observed_address()), answer.reachable(),
            net::LogText::of(answer.detail(), 200)};
}

} // namespace sahaj::admission
