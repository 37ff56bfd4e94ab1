#pragma once

#include "core/compute/UniqueFd.h"
#include "core/compute/core_channel.pb.h"

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sahaj::compute {

// The other side closed the channel (its process ended) or the channel broke.
class ChannelClosed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One end of the local channel between the engine and a compute core: a UNIX stream socket carrying
// length-prefixed corechannel::CoreMessage frames, with file descriptors (SCM_RIGHTS) beside them
// (docs/compute-cores.md). Every wait has a deadline; a frame longer than kMaxFrameBytes or one that does
// not parse is refused before anything is allocated for it. send() may be called from two threads (the
// core's heartbeat beside its work); receive() from one.
class CoreChannel {
public:
    static constexpr std::size_t kMaxFrameBytes = 64u << 20;
    static constexpr std::size_t kMaxDescriptors = 4;

    struct Received {
        corechannel::CoreMessage message;
        std::vector<UniqueFd> descriptors; // those that came with it, close-on-exec
    };

    explicit CoreChannel(UniqueFd socket);
    // A connected socket pair: the first for this process (close-on-exec), the second to hand to a child
    // (not close-on-exec: the launcher decides what the child inherits). Throws std::runtime_error.
    static std::pair<UniqueFd, UniqueFd> socketPair();

    // Throws ChannelClosed when the other side is gone, std::runtime_error when the frame cannot be sent
    // within `timeout` (the other side stopped reading).
    void send(const corechannel::CoreMessage& message, std::span<const int> descriptors = {},
              std::chrono::milliseconds timeout = std::chrono::seconds(30));
    // The next message, or nullopt when none arrives within `timeout`. Throws ChannelClosed when the other
    // side closed, std::runtime_error for a frame that is too long or does not parse.
    std::optional<Received> receive(std::chrono::milliseconds timeout);

    int fd() const { return socket_.get(); }

private:
    std::optional<Received> takeFrame();
    void readSome();

    UniqueFd socket_;
    std::string buffer_;
    std::vector<UniqueFd> pendingDescriptors_;
    std::mutex sending_;
};

} // namespace sahaj::compute
