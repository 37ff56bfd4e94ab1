#pragma once

#include "core/collab/StateVote.h"

#include <zmq.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::net {
class MessageCodec;
class SocketFactory;
} // namespace sahaj::net

namespace sahaj::collab {

struct StateDonor {
    std::string peerId; // 32 bytes
    std::string endpoint;
    std::string curveKey{};   // from its access token (empty in runs that admit anyone)
    bool coordinator = false; // its access token has the coordinator role
};

// One donor that could not serve the state, and why.
struct DonorFailure {
    std::string peerId;
    std::string reason;
};

// The failures in one line, for the log and the status: "donor 1a2b3c4d: why; donor ...".
std::string describe(const std::vector<DonorFailure>& failures);

struct StateDownload {
    std::string bytes; // the verified snapshot (StateSnapshot::deserialize next)
    std::uint64_t epoch = 0;
    std::string donor;                  // peer id of the donor that served it
    std::vector<DonorFailure> failures; // the donors tried before, in order
};

// A newcomer's download. First it asks every donor (the first kMaxAsked) what it would serve, all at
// once, and takes the state that StateVote finds vouched for (a majority of the answers, or the
// coordinator's): a donor's epoch and state are its own claims. Then it asks the donors that offered that
// state, in the given order (best first), for the snapshot chunk by chunk through a DEALER, and on any
// failure — silence past the timeout, an error reply, a protocol violation, a refused chunk (older,
// spliced, too large, bad hash, not the state vouched for) — drops that donor and starts over with the
// next. One request is in flight at a time: simple, and a 4 MiB chunk keeps the link busy.
//
// A donor may lie by being slow: chunks of 1 byte, each just inside the timeout, would hold the download
// for ever. After the first chunk timeout's worth of grace, a donor must have delivered at least
// minBytesPerSecond on average since the download from it began, or it is dropped like a silent one: a
// download from one donor ends within chunkTimeout + maxBytes / minBytesPerSecond.
class StateDownloader {
public:
    // About 1 Mbit/s: a home uplink serves more; sahajBERT's 0.4 GB state in under an hour at worst.
    static constexpr double kMinBytesPerSecond = 128.0 * 1024;
    // Donors asked what they would serve: enough for a majority to mean something, few enough that
    // asking costs nothing.
    static constexpr std::size_t kMaxAsked = 16;

    StateDownloader(const net::MessageCodec& codec, const net::SocketFactory& sockets, std::uint64_t minEpoch,
                    std::uint64_t maxBytes, std::chrono::milliseconds chunkTimeout,
                    double minBytesPerSecond = kMinBytesPerSecond);

    // nullopt when every donor failed (StateDownload::failures is then lost; lastFailures() keeps it).
    std::optional<StateDownload> download(const std::vector<StateDonor>& donors);
    const std::vector<DonorFailure>& lastFailures() const { return failures_; }

private:
    // The digests of the donors that answered within the chunk timeout; the others are failures.
    std::vector<DonorDigest> askDigests(const std::vector<StateDonor>& donors);
    std::optional<StateDownload> from(const StateDonor& donor, const StateDigest& vouched);
    // Sends on a DEALER whose connection may still be completing, until `deadline`.
    static bool sendBy(zmq::socket_t& socket, std::vector<zmq::message_t>& frames,
                       std::chrono::steady_clock::time_point deadline);

    const net::MessageCodec& codec_;
    const net::SocketFactory& sockets_;
    std::uint64_t minEpoch_;
    std::uint64_t maxBytes_;
    std::chrono::milliseconds chunkTimeout_;
    double minBytesPerSecond_;
    std::vector<DonorFailure> failures_;
    std::uint64_t nextRequestId_ = 1;
};

} // namespace sahaj::collab
