#include "core/admission/EndpointCall.h"

#include "core/net/CoordinatorClock.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"

#include <QString>

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace sahaj::admission {

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void noAnswer(const std::string& endpoint, std::chrono::milliseconds timeout) {
    throw EndpointCall::NoAnswer(QStringLiteral("no answer from the token endpoint %1 within %2 s")
                                     .arg(QString::fromStdString(endpoint))
                                     .arg(static_cast<double>(timeout.count()) / 1000.0)
                                     .toStdString());
}

} // namespace

net::WireMessage EndpointCall::exchange(const net::SocketFactory& sockets, const std::string& endpoint,
                                        const std::string& serverCurveKey, const net::MessageCodec& codec,
                                        std::vector<zmq::message_t> frames, std::uint64_t requestId,
                                        std::chrono::milliseconds timeout, net::CoordinatorClock* clock) {
    const Clock::time_point deadline = Clock::now() + timeout;
    const auto sent = net::CoordinatorClock::Clock::now();
    zmq::socket_t dealer = sockets.connectDealer(endpoint, serverCurveKey);
    // The DEALER queues only on a completed (CURVE) connection, so sending waits for the handshake: bound
    // by the same timeout, or an endpoint that never answers the handshake would block forever.
    dealer.set(zmq::sockopt::sndtimeo,
               static_cast<int>(std::clamp<std::int64_t>(timeout.count(), 0, INT_MAX)));
    if (!net::MessageCodec::send(dealer, frames))
        noAnswer(endpoint, timeout);
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left <= std::chrono::milliseconds::zero())
            noAnswer(endpoint, timeout);
        net::WireMessage reply;
        try {
            std::optional<std::vector<zmq::message_t>> received = net::MessageCodec::receive(dealer, left);
            if (!received)
                noAnswer(endpoint, timeout);
            reply = codec.decode(std::move(*received));
        } catch (const net::ProtocolViolation& e) {
            throw std::runtime_error(std::string("the token endpoint sent a malformed answer: ") + e.what());
        }
        if (reply.envelope.request_id() == requestId) {
            if (clock)
                clock->noteExchange(reply.envelope.timestamp_ms(), sent, net::CoordinatorClock::Clock::now());
            return reply;
        }
        // Not ours (the connection is new, so nothing else should come): ignored.
    }
}

} // namespace sahaj::admission
