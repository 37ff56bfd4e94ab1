#include "core/net/TcpListener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace sahaj::net {

TcpListener::TcpListener(const QString& host, std::uint16_t port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host.toLatin1().constData(), &address.sin_addr) != 1)
        throw std::runtime_error("cannot listen at '" + host.toStdString() + "': not a numeric IPv4 address");
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const auto fail = [&](const char* what) {
        const int error = errno;
        if (fd_ >= 0)
            ::close(fd_);
        throw std::runtime_error(QStringLiteral("cannot listen at %1:%2: %3 failed: %4")
                                     .arg(host)
                                     .arg(port)
                                     .arg(QLatin1String(what), QString::fromLocal8Bit(std::strerror(error)))
                                     .toStdString());
    };
    if (fd_ < 0)
        fail("socket()");
    // As libzmq binds its listeners: the ROUTER takes this port over right after.
    const int on = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0)
        fail("bind()");
    if (::listen(fd_, 8) != 0)
        fail("listen()");
    sockaddr_in bound{};
    socklen_t length = sizeof(bound);
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &length) != 0)
        fail("getsockname()");
    port_ = ntohs(bound.sin_port);
}

TcpListener::~TcpListener() {
    ::close(fd_);
}

} // namespace sahaj::net
