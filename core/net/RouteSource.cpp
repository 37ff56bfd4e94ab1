#include "core/net/RouteSource.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace sahaj::net {

QString RouteSource::toward(const QString& host) {
    sockaddr_in remote{};
    remote.sin_family = AF_INET;
    remote.sin_port = htons(9); // any port: nothing is sent
    if (inet_pton(AF_INET, host.toLatin1().constData(), &remote.sin_addr) != 1)
        return {};
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return {};
    QString address;
    sockaddr_in local{};
    socklen_t length = sizeof(local);
    char text[INET_ADDRSTRLEN] = {};
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&remote), sizeof(remote)) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0 &&
        inet_ntop(AF_INET, &local.sin_addr, text, sizeof(text)) != nullptr)
        address = QString::fromLatin1(text);
    ::close(fd);
    return address;
}

QString RouteSource::listenToward(const QString& host) {
    const QString address = toward(host);
    if (address.isEmpty())
        throw std::runtime_error(QStringLiteral("no route to the coordinator at %1: is this computer online?")
                                     .arg(host)
                                     .toStdString());
    return address + QStringLiteral(":0");
}

} // namespace sahaj::net
