#include "core/admission/CoordinatorMirror.h"

#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"
#include "core/net/TokenBucket.h"
#include "core/net/WireLimits.h"
#include "core/net/ZapHandler.h"
#include "core/security/CurveKeyPair.h"
#include "core/security/PeerIdentity.h"

#include <QRandomGenerator>

#include <zmq.hpp>

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace sahaj::admission {

namespace {

using Clock = std::chrono::steady_clock;
using Outcome = fetch::FetchResult::Outcome;
using namespace std::chrono_literals;

// How often the loop looks up from its socket: cancellation and the deadlines are noticed this fast.
constexpr auto kPoll = 100ms;
constexpr auto kProgressEvery = 250ms;

struct Piece {
    std::uint64_t requestId;
    std::int64_t offset;
    std::int64_t length;
};

fetch::FetchResult ended(Outcome outcome, std::int64_t received, const QString& message = {}) {
    fetch::FetchResult result;
    result.outcome = outcome;
    result.received = received;
    result.message = message;
    return result;
}

} // namespace

CoordinatorMirror::CoordinatorMirror(Access access) : access_(std::move(access)) {
    if (!access_.identity || !access_.curve)
        throw std::invalid_argument("the coordinator's mirror needs this peer's identity and CURVE keys");
}

QString CoordinatorMirror::name() const {
    return QStringLiteral("the coordinator's mirror at %1").arg(QString::fromStdString(access_.endpoint));
}

fetch::FetchResult CoordinatorMirror::fetch(const run::DataShard& shard, std::int64_t offset,
                                            const fetch::TransferSettings& settings,
                                            const fetch::HttpFetch::Sink& sink,
                                            const fetch::HttpFetch::Progress& progress,
                                            const std::atomic<bool>* cancel) {
    const std::string peerId = access_.identity->id().bytes().toStdString();
    const QByteArray sha256 = QByteArray::fromHex(shard.sha256.toLatin1());
    const std::int64_t total = shard.bytes;
    // On a context of its own: this runs on a downloading thread, before the link's thread exists.
    zmq::context_t context;
    const net::SocketFactory sockets(context, peerId, {},
                                     net::SocketFactory::Curve{access_.curve->publicKey().toStdString(),
                                                               access_.curve->secretKey().toStdString(),
                                                               net::ZapHandler::kAdmissionDomain});
    zmq::socket_t dealer = sockets.connectDealer(access_.endpoint, access_.serverCurveKey);
    const net::MessageCodec codec(access_.runId.toStdString(), peerId);
    std::optional<net::TokenBucket> cap;
    if (settings.maxBytesPerSecond > 0)
        cap.emplace(double(settings.maxBytesPerSecond), double(net::WireLimits::kMaxShardPieceBytes));

    std::int64_t delivered = offset; // bytes handed to the sink, from the start of the file
    std::int64_t asked = offset;     // the next piece to ask for
    std::deque<Piece> window;
    std::uint64_t nextRequestId = QRandomGenerator::system()->generate64();
    Clock::time_point sendAfter = Clock::now();
    // Until the first piece, the connection and CURVE handshake count too.
    Clock::time_point lastProgress = Clock::now();
    Clock::time_point lastReported = Clock::now();
    auto patience =
        settings.connectTimeout + std::chrono::duration_cast<std::chrono::milliseconds>(settings.stallTime);

    const auto received = [&] { return delivered - offset; };
    const auto restart = [&](Clock::time_point after) {
        window.clear(); // replies to these are ignored when they come: their ids are no longer awaited
        asked = delivered;
        sendAfter = after;
    };

    while (delivered < total) {
        if (cancel && cancel->load())
            return ended(Outcome::Cancelled, received());
        const Clock::time_point now = Clock::now();
        while (int(window.size()) < kWindow && asked < total && now >= sendAfter) {
            const std::int64_t length =
                std::min<std::int64_t>(net::WireLimits::kMaxShardPieceBytes, total - asked);
            wire::Envelope envelope;
            envelope.set_request_id(nextRequestId);
            wire::ShardRequest& request = *envelope.mutable_shard_request();
            request.set_sha256(sha256.toStdString());
            request.set_offset(std::uint64_t(asked));
            request.set_length(std::uint32_t(length));
            request.set_token(access_.token.toStdString());
            std::vector<zmq::message_t> frames = codec.encode(std::move(envelope));
            // The DEALER queues only on a completed handshake; a full queue waits for the next turn.
            if (!net::MessageCodec::send(dealer, frames, nullptr, /*dontWait=*/true))
                break;
            window.push_back({nextRequestId++, asked, length});
            asked += length;
            if (cap)
                if (const auto wait = cap->reserve(std::uint64_t(length), now); wait.count() > 0)
                    sendAfter = now + wait; // the volunteer's download cap spaces the requests out
        }

        std::optional<std::vector<zmq::message_t>> frames;
        net::WireMessage reply;
        try {
            frames = net::MessageCodec::receive(dealer, kPoll);
            if (frames)
                reply = codec.decode(std::move(*frames));
        } catch (const net::ProtocolViolation& e) {
            return ended(
                Outcome::Refused, received(),
                QStringLiteral("the mirror sent a malformed message: %1").arg(QString::fromUtf8(e.what())));
        }
        if (!frames) {
            if (Clock::now() - lastProgress > patience)
                return ended(Outcome::Stalled, received(),
                             QStringLiteral("no piece of the file came from the mirror for %1 s")
                                 .arg(std::chrono::duration_cast<std::chrono::seconds>(patience).count()));
            continue;
        }
        if (window.empty() || reply.envelope.request_id() != window.front().requestId) {
            // A reply to a request given up on, or an answer out of order (the mirror dropped one):
            // ask again from the first byte missing.
            if (std::any_of(window.begin(), window.end(),
                            [&](const Piece& p) { return p.requestId == reply.envelope.request_id(); }))
                restart(Clock::now());
            continue;
        }
        if (reply.envelope.has_error())
            return ended(Outcome::Refused, received(),
                         QStringLiteral("the mirror rejected the request: %1")
                             .arg(net::LogText::of(reply.envelope.error().message(), 500)));
        if (!reply.envelope.has_shard_data())
            return ended(Outcome::Refused, received(),
                         QStringLiteral("the mirror answered with something other than a piece of the file"));
        const wire::ShardData& data = reply.envelope.shard_data();
        const Piece piece = window.front();
        if (!data.refusal().empty())
            return ended(Outcome::Refused, received(), net::LogText::of(data.refusal(), 500));
        if (data.sha256() != sha256.toStdString() || data.offset() != std::uint64_t(piece.offset))
            return ended(Outcome::Refused, received(),
                         QStringLiteral("the mirror answered for another file or offset than asked"));
        if (data.retry_after_ms() > 0) {
            restart(Clock::now() + std::min<std::chrono::milliseconds>(
                                       std::chrono::milliseconds(data.retry_after_ms()), kMaxPause));
            lastProgress = Clock::now(); // a mirror at its cap is alive
            continue;
        }
        if (data.total() != std::uint64_t(total))
            return ended(Outcome::Refused, received(),
                         QStringLiteral("the mirror's file has %1 bytes, the run manifest says %2")
                             .arg(data.total())
                             .arg(total));
        const zmq::message_t& bytes = reply.data.front();
        if (std::int64_t(bytes.size()) != piece.length)
            return ended(Outcome::Refused, received(),
                         QStringLiteral("the mirror sent %1 bytes of a piece of %2")
                             .arg(bytes.size())
                             .arg(piece.length));
        if (!sink(static_cast<const char*>(bytes.data()), bytes.size()))
            return ended(Outcome::SinkFailed, received());
        window.pop_front();
        delivered += piece.length;
        lastProgress = Clock::now();
        patience = std::chrono::duration_cast<std::chrono::milliseconds>(settings.stallTime);
        if (progress && (lastProgress - lastReported >= kProgressEvery || delivered == total)) {
            progress(received());
            lastReported = lastProgress;
        }
    }
    return ended(Outcome::Complete, received());
}

} // namespace sahaj::admission
