#include "core/collab/StateDownloader.h"

#include "core/collab/StateAssembler.h"
#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"

#include <QByteArray>

namespace sahaj::collab {

StateDownloader::StateDownloader(const net::MessageCodec& codec, const net::SocketFactory& sockets,
                                 std::uint64_t minEpoch, std::uint64_t maxBytes,
                                 std::chrono::milliseconds chunkTimeout, double minBytesPerSecond)
    : codec_(codec), sockets_(sockets), minEpoch_(minEpoch), maxBytes_(maxBytes), chunkTimeout_(chunkTimeout),
      minBytesPerSecond_(minBytesPerSecond) {}

std::string describe(const std::vector<DonorFailure>& failures) {
    std::string line;
    for (const DonorFailure& failure : failures)
        line += (line.empty() ? "donor " : "; donor ") +
                QByteArray::fromStdString(failure.peerId).toHex().left(8).toStdString() + ": " +
                failure.reason;
    return line;
}

std::optional<StateDownload> StateDownloader::download(const std::vector<StateDonor>& donors) {
    failures_.clear();
    for (const StateDonor& donor : donors) {
        std::optional<StateDownload> result = from(donor);
        if (result) {
            result->failures = failures_;
            return result;
        }
    }
    return std::nullopt;
}

std::optional<StateDownload> StateDownloader::from(const StateDonor& donor) {
    const auto fail = [&](const std::string& why) -> std::optional<StateDownload> {
        failures_.push_back({donor.peerId, why});
        return std::nullopt;
    };
    zmq::socket_t socket;
    try {
        socket = sockets_.connectDealer(donor.endpoint, donor.curveKey);
    } catch (const zmq::error_t& e) {
        return fail(std::string("cannot connect: ") + e.what());
    }
    StateAssembler assembler(minEpoch_, maxBytes_);
    const auto began = std::chrono::steady_clock::now();
    std::uint64_t received = 0;
    while (!assembler.complete()) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        const double grace = std::chrono::duration<double>(chunkTimeout_).count();
        if (seconds > grace && static_cast<double>(received) < minBytesPerSecond_ * (seconds - grace))
            return fail("delivered " + std::to_string(received) + " bytes in " +
                        std::to_string(static_cast<long long>(seconds)) + " s, slower than " +
                        std::to_string(static_cast<long long>(minBytesPerSecond_)) + " bytes/s");
        wire::Envelope request;
        request.set_request_id(nextRequestId_++);
        request.mutable_state_request()->set_min_epoch(minEpoch_);
        request.mutable_state_request()->set_chunk(assembler.nextChunk());
        std::vector<zmq::message_t> frames = codec_.encode(request);
        // A DEALER with ZMQ_IMMEDIATE queues only on a completed connection: wait for it within the timeout.
        // Not less: in runs that admit by token, a donor's ZAP handler may hold the handshake for seconds
        // until it has read this peer's token (docs/security.md). Donors that fail go last next time
        // (DonorHistory) instead.
        const auto deadline = std::chrono::steady_clock::now() + chunkTimeout_;
        while (!net::MessageCodec::send(socket, frames, nullptr, /*dontWait=*/true)) {
            if (std::chrono::steady_clock::now() >= deadline)
                return fail("no connection");
            zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLOUT, 0};
            zmq::poll(&item, 1, std::chrono::milliseconds(50));
        }
        try {
            for (;;) {
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now());
                std::optional<std::vector<zmq::message_t>> reply =
                    net::MessageCodec::receive(socket, std::max(left, std::chrono::milliseconds(0)));
                if (!reply)
                    return fail("no answer within " + std::to_string(chunkTimeout_.count()) + " ms");
                const net::WireMessage message = codec_.decode(std::move(*reply));
                if (message.envelope.sender() != donor.peerId)
                    throw net::ProtocolViolation("a reply from another peer than the donor");
                if (message.envelope.request_id() != request.request_id())
                    continue; // a late answer to an earlier request
                if (message.envelope.has_error())
                    return fail("refused: " + net::LogText::utf8(message.envelope.error().message()));
                if (!message.envelope.has_state_chunk())
                    throw net::ProtocolViolation("an unexpected reply to a state request");
                assembler.add(message.envelope.state_chunk(), message.data.front());
                received += message.data.front().size();
                break;
            }
        } catch (const net::ProtocolViolation& e) {
            return fail(e.what());
        }
    }
    StateDownload result;
    result.epoch = assembler.epoch();
    result.bytes = assembler.take();
    result.donor = donor.peerId;
    return result;
}

} // namespace sahaj::collab
