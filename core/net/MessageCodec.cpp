#include "core/net/MessageCodec.h"

#include "core/net/ClockSkew.h"
#include "core/net/LogText.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"
#include "core/net/WireLimits.h"

#include <QByteArray>

#include <algorithm>
#include <stdexcept>

namespace sahaj::net {

MessageCodec::MessageCodec(std::string runId, std::string peerId)
    : runId_(std::move(runId)), peerId_(std::move(peerId)) {
    if (runId_.empty() || runId_.size() > WireLimits::kMaxRunIdBytes)
        throw std::invalid_argument("a run id must have 1 to " + std::to_string(WireLimits::kMaxRunIdBytes) +
                                    " bytes");
    if (peerId_.size() != WireLimits::kPeerIdBytes)
        throw std::invalid_argument("a peer id must have " + std::to_string(WireLimits::kPeerIdBytes) +
                                    " bytes");
}

std::vector<zmq::message_t> MessageCodec::encode(wire::Envelope envelope,
                                                 std::vector<zmq::message_t> data) const {
    envelope.set_version(WireLimits::kProtocolVersion);
    envelope.set_run_id(runId_);
    envelope.set_sender(peerId_);
    envelope.set_timestamp_ms(
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count()));
    std::vector<zmq::message_t> frames;
    frames.reserve(1 + data.size());
    const std::string bytes = envelope.SerializeAsString();
    frames.emplace_back(bytes.data(), bytes.size());
    for (zmq::message_t& frame : data)
        frames.push_back(std::move(frame));
    return frames;
}

WireMessage MessageCodec::decode(std::vector<zmq::message_t> frames) const {
    if (frames.empty() || frames.size() > WireLimits::kMaxFrames)
        throw ProtocolViolation("a message has 1 to " + std::to_string(WireLimits::kMaxFrames) +
                                " frames, got " + std::to_string(frames.size()));
    const zmq::message_t& head = frames.front();
    if (head.size() > WireLimits::kMaxEnvelopeBytes)
        throw ProtocolViolation("the envelope frame has " + std::to_string(head.size()) +
                                " bytes, more than " + std::to_string(WireLimits::kMaxEnvelopeBytes));
    for (std::size_t i = 1; i < frames.size(); ++i)
        if (frames[i].size() > WireLimits::kMaxDataFrameBytes)
            throw ProtocolViolation("a data frame has " + std::to_string(frames[i].size()) +
                                    " bytes, more than " + std::to_string(WireLimits::kMaxDataFrameBytes));

    WireMessage message;
    if (!message.envelope.ParseFromArray(head.data(), static_cast<int>(head.size())))
        throw ProtocolViolation("the envelope frame is not a valid protobuf message");
    const wire::Envelope& envelope = message.envelope;
    if (envelope.version() != WireLimits::kProtocolVersion)
        throw ProtocolViolation("protocol version " + std::to_string(envelope.version()) +
                                " is not supported (this "
                                "peer speaks " +
                                std::to_string(WireLimits::kProtocolVersion) + ")");
    if (envelope.run_id() != runId_)
        throw ProtocolViolation("the message belongs to another run ('" +
                                LogText::utf8(envelope.run_id(), 64) + "')");
    MessageValidator::checkPeerId(envelope.sender(), "sender");
    if (authenticate_)
        checkAuthenticated(head, envelope);
    if (envelope.nonce().size() > WireLimits::kMaxHashBytes || envelope.signature().size() > 128)
        throw ProtocolViolation("the envelope's nonce or signature is too long");
    for (std::size_t i = 1; i < frames.size(); ++i)
        message.data.push_back(std::move(frames[i]));
    MessageValidator::validate(envelope, message.data);
    return message;
}

void MessageCodec::authenticateSenders(std::function<bool(const std::string& peerId)> banned) {
    authenticate_ = true;
    banned_ = std::move(banned);
}

void MessageCodec::checkAuthenticated(const zmq::message_t& head, const wire::Envelope& envelope) const {
    const std::string user = SocketFactory::authenticatedUser(head);
    if (!user.empty() && user != QByteArray::fromStdString(envelope.sender()).toHex().toStdString())
        throw ProtocolViolation(
            "the message names another sender than the peer its connection authenticated");
    if (banned_ && banned_(envelope.sender()))
        throw ProtocolViolation("the sender is banned for breaking the protocol");
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    const auto window = std::chrono::duration_cast<std::chrono::milliseconds>(kReplayWindow).count();
    const auto sent = static_cast<std::int64_t>(std::min<std::uint64_t>(envelope.timestamp_ms(), 1ull << 62));
    if (sent < now - window || sent > now + window)
        throw ClockSkew("the message's timestamp is more than " + std::to_string(kReplayWindow.count()) +
                            " s from this peer's clock (" + std::to_string((sent - now) / 1000) +
                            " s: one of the two clocks is off)",
                        sent - now);
}

bool MessageCodec::send(zmq::socket_t& socket, std::vector<zmq::message_t>& frames,
                        const zmq::message_t* route, bool dontWait) {
    return trySend(socket, frames, route, dontWait) == SendResult::Sent;
}

MessageCodec::SendResult MessageCodec::trySend(zmq::socket_t& socket, std::vector<zmq::message_t>& frames,
                                               const zmq::message_t* route, bool dontWait) {
    const zmq::send_flags first = dontWait ? zmq::send_flags::dontwait : zmq::send_flags::none;
    const auto flagsOf = [&](std::size_t index, std::size_t count) {
        zmq::send_flags flags = index == 0 ? first : zmq::send_flags::none;
        return index + 1 < count ? flags | zmq::send_flags::sndmore : flags;
    };
    try {
        // The first frame decides: if it is refused nothing was queued and the frames stay with the
        // caller; once it is queued, libzmq takes the rest of the multipart message without blocking.
        if (route) {
            zmq::message_t copy(route->data(), route->size());
            if (!socket.send(copy, flagsOf(0, frames.size() + 1)))
                return SendResult::WouldBlock;
            for (std::size_t i = 0; i < frames.size(); ++i)
                socket.send(frames[i], flagsOf(i + 1, frames.size() + 1));
        } else {
            for (std::size_t i = 0; i < frames.size(); ++i)
                if (!socket.send(frames[i], flagsOf(i, frames.size())) && i == 0)
                    return SendResult::WouldBlock;
        }
    } catch (const zmq::error_t& e) {
        // ZMQ_ROUTER_MANDATORY: the peer is gone (EHOSTUNREACH). Nothing was queued.
        if (e.num() == EHOSTUNREACH)
            return SendResult::Unreachable;
        throw;
    }
    frames.clear();
    return SendResult::Sent;
}

std::optional<std::vector<zmq::message_t>>
MessageCodec::receive(zmq::socket_t& socket, std::chrono::milliseconds timeout, zmq::message_t* route) {
    zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, timeout);
    if (!(item.revents & ZMQ_POLLIN))
        return std::nullopt;
    std::vector<zmq::message_t> frames;
    bool first = true;
    bool tooMany = false;
    for (;;) {
        zmq::message_t frame;
        if (!socket.recv(frame, zmq::recv_flags::none))
            break;
        const bool more = frame.more();
        if (first && route)
            *route = std::move(frame);
        else if (frames.size() < WireLimits::kMaxFrames)
            frames.push_back(std::move(frame));
        else
            tooMany = true; // keep draining: the next receive must start at a message boundary
        first = false;
        if (!more)
            break;
    }
    if (tooMany)
        throw ProtocolViolation("a message has more than " + std::to_string(WireLimits::kMaxFrames) +
                                " frames");
    return frames;
}

std::string MessageCodec::claimedSender(const zmq::message_t& envelopeFrame) {
    wire::Envelope probe;
    if (envelopeFrame.size() > WireLimits::kMaxEnvelopeBytes ||
        !probe.ParseFromArray(envelopeFrame.data(), static_cast<int>(envelopeFrame.size())) ||
        probe.sender().size() != WireLimits::kPeerIdBytes)
        return {};
    return probe.sender();
}

} // namespace sahaj::net
