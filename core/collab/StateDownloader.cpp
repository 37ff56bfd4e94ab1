#include "core/collab/StateDownloader.h"

#include "core/collab/StateAssembler.h"
#include "core/net/LogText.h"
#include "core/net/MessageCodec.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/SocketFactory.h"

#include <QByteArray>

#include <algorithm>

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

namespace {

std::string describe(const StateDigest& digest) {
    return "epoch " + std::to_string(digest.epoch) + ", sha256 " +
           QByteArray::fromStdString(digest.sha256).toHex().left(8).toStdString();
}

} // namespace

std::optional<StateDownload> StateDownloader::download(const std::vector<StateDonor>& donors) {
    failures_.clear();
    const std::vector<DonorDigest> answers = askDigests(donors);
    std::string disagreement;
    const std::optional<StateDigest> vouched = StateVote::choose(answers, disagreement);
    if (!vouched) {
        for (const DonorDigest& answer : answers)
            failures_.push_back({answer.peerId, "offers " + describe(answer.digest) + ": " + disagreement});
        return std::nullopt;
    }
    for (const StateDonor& donor : donors) {
        const auto answer = std::find_if(answers.begin(), answers.end(),
                                         [&](const DonorDigest& a) { return a.peerId == donor.peerId; });
        if (answer == answers.end())
            continue; // a failure already
        if (answer->digest != *vouched) {
            failures_.push_back({donor.peerId, "offers " + describe(answer->digest) +
                                                   ", not the state vouched for (" + describe(*vouched) +
                                                   ")"});
            continue;
        }
        std::optional<StateDownload> result = from(donor, *vouched);
        if (result) {
            result->failures = failures_;
            return result;
        }
    }
    return std::nullopt;
}

bool StateDownloader::sendBy(zmq::socket_t& socket, std::vector<zmq::message_t>& frames,
                             std::chrono::steady_clock::time_point deadline) {
    // A DEALER with ZMQ_IMMEDIATE queues only on a completed connection: wait for it within the timeout.
    // Not less: in runs that admit by token, a donor's ZAP handler may hold the handshake for seconds
    // until it has read this peer's token (docs/security.md). Donors that fail go last next time
    // (DonorHistory) instead.
    while (!net::MessageCodec::send(socket, frames, nullptr, /*dontWait=*/true)) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLOUT, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(50));
    }
    return true;
}

std::vector<DonorDigest> StateDownloader::askDigests(const std::vector<StateDonor>& donors) {
    struct Asking {
        const StateDonor* donor;
        zmq::socket_t socket;
        std::vector<zmq::message_t> request; // until sent
        std::uint64_t requestId = 0;
        bool done = false;
        std::string failure; // reported in the donors' order, whenever it happened
    };
    std::vector<Asking> asking;
    std::size_t open = 0;
    for (const StateDonor& donor : donors) {
        if (asking.size() == kMaxAsked)
            break;
        Asking& entry = asking.emplace_back(Asking{&donor, {}, {}, nextRequestId_++, false, {}});
        try {
            entry.socket = sockets_.connectDealer(donor.endpoint, donor.curveKey);
            wire::Envelope request;
            request.set_request_id(entry.requestId);
            request.mutable_state_digest_request()->set_min_epoch(minEpoch_);
            entry.request = codec_.encode(std::move(request));
            ++open;
        } catch (const zmq::error_t& e) {
            entry.failure = std::string("cannot connect: ") + e.what();
            entry.done = true;
        }
    }
    std::vector<DonorDigest> answers;
    const auto deadline = std::chrono::steady_clock::now() + chunkTimeout_;
    // A digest that more than half of the donors asked offer is the majority of any set that answers:
    // nobody needs to be waited for any more (a dead donor's record would otherwise cost the timeout).
    const auto decided = [&] { return StateVote::majority(answers, asking.size()).has_value(); };
    while (open > 0 && std::chrono::steady_clock::now() < deadline && !decided()) {
        std::vector<zmq::pollitem_t> items;
        std::vector<Asking*> polled;
        for (Asking& entry : asking)
            if (!entry.done) {
                items.push_back({entry.socket.handle(), 0,
                                 static_cast<short>(entry.request.empty() ? ZMQ_POLLIN : ZMQ_POLLOUT), 0});
                polled.push_back(&entry);
            }
        zmq::poll(items.data(), items.size(), std::chrono::milliseconds(50));
        for (std::size_t i = 0; i < polled.size(); ++i) {
            Asking& entry = *polled[i];
            if (!entry.request.empty()) {
                if (net::MessageCodec::send(entry.socket, entry.request, nullptr, /*dontWait=*/true))
                    entry.request.clear();
                continue;
            }
            if (!(items[i].revents & ZMQ_POLLIN))
                continue;
            const auto fail = [&](const std::string& why) {
                entry.failure = why;
                entry.done = true;
                --open;
            };
            try {
                std::optional<std::vector<zmq::message_t>> reply =
                    net::MessageCodec::receive(entry.socket, std::chrono::milliseconds(0));
                if (!reply)
                    continue;
                const net::WireMessage message = codec_.decode(std::move(*reply));
                if (message.envelope.sender() != entry.donor->peerId)
                    throw net::ProtocolViolation("a reply from another peer than the donor");
                if (message.envelope.request_id() != entry.requestId)
                    continue;
                if (message.envelope.has_error()) {
                    fail("refused: " + net::LogText::utf8(message.envelope.error().message()));
                } else if (!message.envelope.has_state_digest()) {
                    throw net::ProtocolViolation("an unexpected reply to a state digest request");
                } else if (message.envelope.state_digest().epoch() < minEpoch_) {
                    fail("offers a state older than asked for");
                } else {
                    const wire::StateDigest& digest = message.envelope.state_digest();
                    answers.push_back({entry.donor->peerId,
                                       entry.donor->coordinator,
                                       {digest.epoch(), digest.sha256(), digest.size()}});
                    entry.done = true;
                    --open;
                }
            } catch (const net::ProtocolViolation& e) {
                fail(e.what());
            }
        }
    }
    const bool cutShort = open > 0 && decided();
    for (Asking& entry : asking) {
        if (!entry.done && !cutShort)
            entry.failure = entry.request.empty()
                                ? "no answer within " + std::to_string(chunkTimeout_.count()) + " ms"
                                : std::string("no connection");
        if (!entry.failure.empty())
            failures_.push_back({entry.donor->peerId, entry.failure});
    }
    return answers;
}

std::optional<StateDownload> StateDownloader::from(const StateDonor& donor, const StateDigest& vouched) {
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
    StateAssembler assembler(minEpoch_, maxBytes_, vouched);
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
        request.mutable_state_request()->set_snapshot_id(assembler.snapshotToAsk());
        std::vector<zmq::message_t> frames = codec_.encode(request);
        const auto deadline = std::chrono::steady_clock::now() + chunkTimeout_;
        if (!sendBy(socket, frames, deadline))
            return fail("no connection");
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
