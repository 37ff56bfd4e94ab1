#include "core/compute/CoreChannel.h"

#include "core/compute/SystemError.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sahaj::compute {

namespace {

using Clock = std::chrono::steady_clock;

void setNonBlocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
        throw systemError("making the core channel non-blocking");
}

// Waits for `events` on fd until the deadline. false: the deadline passed.
bool waitFor(int fd, short events, Clock::time_point deadline) {
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return false;
        pollfd entry{fd, events, 0};
        const int ready = ::poll(&entry, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1 << 30)));
        if (ready > 0)
            return true;
        if (ready < 0 && errno != EINTR)
            throw systemError("waiting on the core channel");
    }
}

std::uint32_t readLength(const std::string& buffer) {
    std::uint32_t length = 0;
    for (int i = 3; i >= 0; --i)
        length = (length << 8) | static_cast<unsigned char>(buffer[static_cast<std::size_t>(i)]);
    return length;
}

} // namespace

CoreChannel::CoreChannel(UniqueFd socket) : socket_(std::move(socket)) {
    setNonBlocking(socket_.get());
}

std::pair<UniqueFd, UniqueFd> CoreChannel::socketPair() {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0)
        throw systemError("socketpair for a compute core");
    UniqueFd mine(ends[0]);
    UniqueFd theirs(ends[1]);
    if (::fcntl(mine.get(), F_SETFD, FD_CLOEXEC) != 0)
        throw systemError("marking the engine's end of the core channel close-on-exec");
    return {std::move(mine), std::move(theirs)};
}

void CoreChannel::send(const corechannel::CoreMessage& message, std::span<const int> descriptors,
                       std::chrono::milliseconds timeout) {
    if (descriptors.size() > kMaxDescriptors)
        throw std::invalid_argument("too many descriptors for one frame");
    std::string frame(4, '\0');
    if (!message.AppendToString(&frame))
        throw std::runtime_error("a core channel message could not be serialised");
    const std::size_t length = frame.size() - 4;
    if (length > kMaxFrameBytes)
        throw std::invalid_argument("a core channel frame of " + std::to_string(length) + " bytes");
    for (int i = 0; i < 4; ++i)
        frame[static_cast<std::size_t>(i)] = static_cast<char>((length >> (8 * i)) & 0xff);

    const std::lock_guard lock(sending_);
    const auto deadline = Clock::now() + timeout;
    std::size_t sent = 0;
    bool descriptorsSent = descriptors.empty();
    while (sent < frame.size()) {
        iovec part{frame.data() + sent, frame.size() - sent};
        msghdr header{};
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * kMaxDescriptors)> control{};
        if (!descriptorsSent) { // with the frame's first bytes, so that they arrive with this frame
            header.msg_control = control.data();
            header.msg_controllen = CMSG_SPACE(sizeof(int) * descriptors.size());
            cmsghdr* entry = CMSG_FIRSTHDR(&header);
            entry->cmsg_level = SOL_SOCKET;
            entry->cmsg_type = SCM_RIGHTS;
            entry->cmsg_len = CMSG_LEN(sizeof(int) * descriptors.size());
            std::memcpy(CMSG_DATA(entry), descriptors.data(), sizeof(int) * descriptors.size());
        }
        const ssize_t written = ::sendmsg(socket_.get(), &header, MSG_NOSIGNAL);
        if (written > 0) {
            sent += static_cast<std::size_t>(written);
            descriptorsSent = true;
            continue;
        }
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!waitFor(socket_.get(), POLLOUT, deadline))
                throw std::runtime_error("the other side of the core channel stopped reading");
            continue;
        }
        if (written < 0 && (errno == EPIPE || errno == ECONNRESET))
            throw ChannelClosed("the other side closed the core channel");
        throw systemError("sending on the core channel");
    }
}

std::optional<CoreChannel::Received> CoreChannel::takeFrame() {
    if (buffer_.size() < 4)
        return std::nullopt;
    const std::uint32_t length = readLength(buffer_);
    if (length > kMaxFrameBytes)
        throw std::runtime_error("a core channel frame of " + std::to_string(length) + " bytes (at most " +
                                 std::to_string(kMaxFrameBytes) + ")");
    if (buffer_.size() < 4 + static_cast<std::size_t>(length))
        return std::nullopt;
    Received received;
    if (!received.message.ParseFromArray(buffer_.data() + 4, static_cast<int>(length)))
        throw std::runtime_error("a core channel frame that is not a CoreMessage");
    buffer_.erase(0, 4 + static_cast<std::size_t>(length));
    received.descriptors = std::move(pendingDescriptors_);
    pendingDescriptors_.clear();
    return received;
}

void CoreChannel::readSome() {
    // Enough for the rest of the frame being read, up to 1 MiB at a time.
    std::size_t want = 1u << 16;
    if (buffer_.size() >= 4) {
        const std::size_t length = readLength(buffer_);
        if (length <= kMaxFrameBytes)
            want = std::clamp<std::size_t>(4 + length - buffer_.size(), 1, 1u << 20);
    }
    const std::size_t old = buffer_.size();
    buffer_.resize(old + want);
    iovec part{buffer_.data() + old, want};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * kMaxDescriptors)> control{};
    header.msg_control = control.data();
    header.msg_controllen = control.size();
    const ssize_t got = ::recvmsg(socket_.get(), &header, MSG_CMSG_CLOEXEC);
    buffer_.resize(old + static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
    for (cmsghdr* entry = CMSG_FIRSTHDR(&header); got >= 0 && entry; entry = CMSG_NXTHDR(&header, entry)) {
        if (entry->cmsg_level != SOL_SOCKET || entry->cmsg_type != SCM_RIGHTS)
            continue;
        const std::size_t count = (entry->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int descriptor = -1;
            std::memcpy(&descriptor, CMSG_DATA(entry) + i * sizeof(int), sizeof(int));
            pendingDescriptors_.emplace_back(descriptor); // owned now, closed if refused below
        }
    }
    if (pendingDescriptors_.size() > kMaxDescriptors)
        throw std::runtime_error("more descriptors on the core channel than any message carries");
    if ((header.msg_flags & MSG_CTRUNC) != 0)
        throw std::runtime_error("descriptors on the core channel were cut off");
    if (got == 0)
        throw ChannelClosed("the other side closed the core channel");
    if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        if (errno == ECONNRESET)
            throw ChannelClosed("the other side closed the core channel");
        throw systemError("reading the core channel");
    }
}

std::optional<CoreChannel::Received> CoreChannel::receive(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (std::optional<Received> frame = takeFrame())
            return frame;
        if (!waitFor(socket_.get(), POLLIN, deadline))
            return std::nullopt;
        readSome();
    }
}

} // namespace sahaj::compute
