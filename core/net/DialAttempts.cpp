#include "core/net/DialAttempts.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace sahaj::net {

namespace {

// Closes with a reset rather than a FIN: the dialler leaves no TIME_WAIT behind, and the dialled side
// needs nothing more than the accepted handshake.
void closeAbruptly(int fd) {
    const linger abrupt{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abrupt, sizeof(abrupt));
    ::close(fd);
}

QString errorText(int error) {
    return QString::fromLocal8Bit(std::strerror(error)).toLower();
}

} // namespace

DialAttempts::DialAttempts(std::size_t maxPending) : maxPending_(maxPending) {}

DialAttempts::~DialAttempts() {
    for (const auto& [id, attempt] : attempts_)
        closeAbruptly(attempt.fd);
}

void DialAttempts::finish(std::uint64_t id, bool connected, const QString& detail) {
    if (const auto it = attempts_.find(id); it != attempts_.end()) {
        closeAbruptly(it->second.fd);
        attempts_.erase(it);
    }
    ended_.push_back({id, connected, detail});
}

std::optional<std::uint64_t> DialAttempts::start(const QString& address, std::uint16_t port,
                                                 std::chrono::milliseconds timeout) {
    if (attempts_.size() >= maxPending_)
        return std::nullopt;
    const std::uint64_t id = nextId_++;
    sockaddr_storage target{};
    socklen_t length = 0;
    const QByteArray text = address.toLatin1();
    auto* v4 = reinterpret_cast<sockaddr_in*>(&target);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&target);
    if (inet_pton(AF_INET, text.constData(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof(sockaddr_in);
    } else if (inet_pton(AF_INET6, text.constData(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof(sockaddr_in6);
    } else {
        ended_.push_back(
            {id, false, QStringLiteral("'%1' is not a numeric IP address").arg(address.left(64))});
        return id;
    }
    const int fd = ::socket(target.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        ended_.push_back({id, false, QStringLiteral("cannot open a socket: %1").arg(errorText(errno))});
        return id;
    }
    attempts_[id] = {fd, Clock::now() + timeout, timeout};
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&target), length) == 0)
        finish(id, true, {});
    else if (errno != EINPROGRESS)
        finish(id, false, errorText(errno));
    return id;
}

std::vector<DialAttempts::Outcome> DialAttempts::poll(std::chrono::milliseconds wait) {
    if (ended_.empty() && !attempts_.empty()) {
        std::vector<pollfd> fds;
        std::vector<std::uint64_t> ids;
        Clock::time_point earliest = Clock::time_point::max();
        for (const auto& [id, attempt] : attempts_) {
            fds.push_back({attempt.fd, POLLOUT, 0});
            ids.push_back(id);
            earliest = std::min(earliest, attempt.deadline);
        }
        const auto untilDeadline = std::chrono::ceil<std::chrono::milliseconds>(
            std::max(earliest - Clock::now(), Clock::duration{}));
        const int timeout =
            static_cast<int>(std::max<std::int64_t>(0, std::min(wait, untilDeadline).count()));
        if (::poll(fds.data(), fds.size(), timeout) > 0)
            for (std::size_t i = 0; i < fds.size(); ++i) {
                if (fds[i].revents == 0)
                    continue;
                int error = 0;
                socklen_t size = sizeof(error);
                if (::getsockopt(fds[i].fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0)
                    error = errno;
                finish(ids[i], error == 0, error == 0 ? QString() : errorText(error));
            }
    }
    const Clock::time_point now = Clock::now();
    std::vector<std::uint64_t> late;
    for (const auto& [id, attempt] : attempts_)
        if (now >= attempt.deadline)
            late.push_back(id);
    for (const std::uint64_t id : late)
        finish(
            id, false,
            QStringLiteral("no answer within %1 s").arg(double(attempts_.at(id).timeout.count()) / 1000.0));
    return std::exchange(ended_, {});
}

} // namespace sahaj::net
