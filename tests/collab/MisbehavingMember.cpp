#include "tests/collab/MisbehavingMember.h"

#include "core/collab/PartHeader.h"
#include "core/collab/TensorEncoding.h"
#include "core/net/MessageCodec.h"
#include "core/net/SocketFactory.h"
#include "core/net/WireLimits.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <thread>
#include <utility>

namespace sahaj::test {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::array<std::pair<MisbehavingMember::Kind, const char*>, 10> kNames{{
    {MisbehavingMember::Kind::OversizedFrame, "oversized-frame"},
    {MisbehavingMember::Kind::WrongCount, "wrong-count"},
    {MisbehavingMember::Kind::WrongDtype, "wrong-dtype"},
    {MisbehavingMember::Kind::WrongIndex, "wrong-index"},
    {MisbehavingMember::Kind::Nan, "nan"},
    {MisbehavingMember::Kind::AbsurdWeight, "absurd-weight"},
    {MisbehavingMember::Kind::InflatedWeight, "inflated-weight"},
    {MisbehavingMember::Kind::BelowFloor, "below-floor"},
    {MisbehavingMember::Kind::Stalling, "stalling"},
    {MisbehavingMember::Kind::Burst, "burst"},
}};

// A thousand times PeerProgressRules::kMaxSamples: no peer accumulates that many samples in one epoch.
constexpr double kAbsurdWeight = 1e15;

// The frame libzmq must refuse (ZMQ_MAXMSGSIZE). Every oversized frame points into this one buffer
// instead of owning 64 MiB of its own; it is never freed because libzmq may hold such frames until the
// context ends, which is after the member is gone.
zmq::message_t oversizedFrame() {
    static std::vector<char> bytes(net::WireLimits::kMaxDataFrameBytes +
                                   net::SocketFactory::kTransportOverheadBytes + 1);
    return zmq::message_t(bytes.data(), bytes.size(), nullptr, nullptr);
}

// The dtype a group does not use, so that the part's encoding is well formed but not the group's.
wire::Encoding otherDtypeThan(const wire::Encoding& encoding) {
    return encoding.dtype() == wire::WIRE_FLOAT32 ? collab::TensorEncoding::fp16()
                                                  : collab::TensorEncoding::fp32();
}

// Writes NaN into the encoded frame itself: an encoder may turn NaN into something finite (fp16
// conversion clamps), and a hostile peer does not use ours.
void poisonOneValue(zmq::message_t& frame, std::int64_t count, const wire::Encoding& encoding) {
    auto* bytes = static_cast<unsigned char*>(frame.data());
    const std::size_t middle = static_cast<std::size_t>(count / 2);
    switch (encoding.dtype()) {
    case wire::WIRE_FLOAT32: {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        std::memcpy(bytes + middle * sizeof(float), &nan, sizeof(float));
        return;
    }
    case wire::WIRE_FLOAT16: {
        const std::uint16_t nan = 0x7E00; // the quiet NaN of IEEE 754 binary16
        std::memcpy(bytes + middle * sizeof(std::uint16_t), &nan, sizeof(nan));
        return;
    }
    case wire::WIRE_UINT8_BLOCKWISE: {
        // The first block's offset (after every byte, then scale and offset per block): the whole block
        // decodes to NaN.
        const float nan = std::numeric_limits<float>::quiet_NaN();
        std::memcpy(bytes + count + 4, &nan, sizeof(float));
        return;
    }
    default:
        throw std::invalid_argument("unknown wire dtype");
    }
}

// Sends without blocking past `giveUpAt`: a connection libzmq dropped takes a moment to come back.
bool sendBefore(zmq::socket_t& socket, std::vector<zmq::message_t>& frames, Clock::time_point giveUpAt) {
    for (;;) {
        if (net::MessageCodec::send(socket, frames, nullptr, true))
            return true;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(giveUpAt - Clock::now());
        if (left.count() <= 0)
            return false;
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLOUT, 0};
        zmq::poll(&item, 1, left);
    }
}

} // namespace

MisbehavingMember::Kind MisbehavingMember::kindFromName(const std::string& name) {
    std::string known;
    for (const auto& [kind, text] : kNames) {
        if (name == text)
            return kind;
        known += known.empty() ? text : std::string(", ") + text;
    }
    throw std::invalid_argument("unknown misbehaviour '" + name + "' (known: " + known + ")");
}

std::string MisbehavingMember::nameOf(Kind kind) {
    for (const auto& [candidate, text] : kNames)
        if (candidate == kind)
            return text;
    throw std::invalid_argument("unknown misbehaviour");
}

MisbehavingMember::MisbehavingMember(collab::GroupSpec spec, const net::MessageCodec& codec,
                                     const net::SocketFactory& sockets, Kind kind)
    : spec_(std::move(spec)), codec_(codec), kind_(kind), me_(spec_.indexOf(codec.peerId())),
      plan_(spec_.spanCounts, spec_.vectorSize, spec_.partElements) {
    if (me_ < 0)
        throw std::invalid_argument("this peer is not a member of the group");
    for (std::size_t a = 0; a < spec_.members.size(); ++a)
        if (static_cast<int>(a) != me_ && spec_.spanCounts[a] > 0)
            dealers_.emplace(a, sockets.connectDealer(spec_.members[a].endpoint));
}

MisbehavingMember::Outcome MisbehavingMember::run(const std::vector<float>& local,
                                                  std::chrono::milliseconds patience) {
    if (static_cast<std::int64_t>(local.size()) != spec_.vectorSize)
        throw std::invalid_argument("the local vector has " + std::to_string(local.size()) +
                                    " values, the group averages " + std::to_string(spec_.vectorSize));
    const Clock::time_point giveUpAt = Clock::now() + patience;
    Outcome outcome;
    if (kind_ == Kind::Stalling)
        return stall(local, Clock::now() + 6 * patience);
    if (kind_ == Kind::Burst) {
        // Connected at once, as an honest member; its parts then come all together, late.
        for (auto& [aggregator, dealer] : dealers_) {
            wire::Envelope notice;
            notice.mutable_member_connected()->set_group_id(spec_.groupId);
            notice.mutable_member_connected()->set_epoch(spec_.epoch);
            std::vector<zmq::message_t> frames = codec_.encode(std::move(notice));
            sendBefore(dealer, frames, giveUpAt);
        }
        std::this_thread::sleep_for(kBurstHoldBack);
    }
    for (auto& [aggregator, dealer] : dealers_) {
        for (std::int64_t p = 0; p < plan_.partCount(static_cast<std::int64_t>(aggregator)); ++p) {
            std::vector<zmq::message_t> frames = craftedPart(aggregator, p, local);
            if (sendBefore(dealer, frames, giveUpAt))
                ++outcome.partsSent;
            else
                ++outcome.partsUnsent;
            if (kind_ == Kind::Burst) // long enough for an aggregator to time (it ignores a blink)
                std::this_thread::sleep_for(kBurstPartGap);
        }
    }
    return outcome;
}

MisbehavingMember::Outcome MisbehavingMember::stall(const std::vector<float>& local,
                                                    Clock::time_point until) {
    Outcome outcome;
    while (Clock::now() < until) {
        for (auto& [aggregator, dealer] : dealers_) {
            wire::Envelope notice;
            notice.mutable_member_connected()->set_group_id(spec_.groupId);
            notice.mutable_member_connected()->set_epoch(spec_.epoch);
            std::vector<zmq::message_t> noticeFrames = codec_.encode(std::move(notice));
            net::MessageCodec::send(dealer, noticeFrames, nullptr, true);
            std::vector<zmq::message_t> frames = craftedPart(aggregator, 0, local);
            if (net::MessageCodec::send(dealer, frames, nullptr, true))
                ++outcome.partsSent;
            else
                ++outcome.partsUnsent;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return outcome;
}

std::vector<zmq::message_t> MisbehavingMember::craftedPart(std::size_t aggregator, std::int64_t p,
                                                           const std::vector<float>& local) const {
    // First the part an honest member would send (as AllReduceRound builds it), then the one change.
    const collab::ElementRange range = plan_.part(static_cast<std::int64_t>(aggregator), p);
    wire::Envelope envelope;
    wire::TensorPart* part = envelope.mutable_tensor_part();
    collab::fillPartHeader(*part, spec_, aggregator, p, range);
    part->set_weight(spec_.members[static_cast<std::size_t>(me_)].weight);
    const float* values = local.data() + range.offset;

    std::vector<zmq::message_t> data;
    switch (kind_) {
    case Kind::OversizedFrame:
        data.push_back(oversizedFrame());
        break;
    case Kind::WrongCount:
        part->set_count(static_cast<std::uint32_t>(range.size - 1));
        data.push_back(collab::TensorEncoding::encode(values, range.size - 1, spec_.encoding));
        break;
    case Kind::WrongDtype:
        *part->mutable_encoding() = otherDtypeThan(spec_.encoding);
        data.push_back(collab::TensorEncoding::encode(values, range.size, part->encoding()));
        break;
    case Kind::WrongIndex:
        part->set_part(
            static_cast<std::uint32_t>(p + plan_.partCount(static_cast<std::int64_t>(aggregator))));
        data.push_back(collab::TensorEncoding::encode(values, range.size, spec_.encoding));
        break;
    case Kind::Nan:
        data.push_back(collab::TensorEncoding::encode(values, range.size, spec_.encoding));
        poisonOneValue(data.front(), range.size, spec_.encoding);
        break;
    case Kind::BelowFloor: {
        std::vector<float> lowered(values, values + range.size);
        lowered[lowered.size() / 2] = -1000.0f;
        data.push_back(collab::TensorEncoding::encode(lowered.data(), range.size, spec_.encoding));
        break;
    }
    case Kind::AbsurdWeight:
        part->set_weight(kAbsurdWeight);
        data.push_back(collab::TensorEncoding::encode(values, range.size, spec_.encoding));
        break;
    case Kind::Stalling:
    case Kind::Burst:
        data.push_back(collab::TensorEncoding::encode(values, range.size, spec_.encoding));
        break;
    case Kind::InflatedWeight:
        part->set_weight(100.0 * spec_.members[static_cast<std::size_t>(me_)].weight);
        data.push_back(collab::TensorEncoding::encode(values, range.size, spec_.encoding));
        break;
    }
    return codec_.encode(std::move(envelope), std::move(data));
}

} // namespace sahaj::test
