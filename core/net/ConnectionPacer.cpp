#include "core/net/ConnectionPacer.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#ifdef __linux__
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#endif

namespace sahaj::net {

namespace {

struct ParsedEndpoint {
    std::string host;
    std::uint16_t port = 0;
};

// "tcp://HOST:PORT", HOST possibly in brackets (IPv6); nullopt for anything else.
std::optional<ParsedEndpoint> parseTcpEndpoint(const std::string& endpoint) {
    const std::string scheme = "tcp://";
    if (endpoint.rfind(scheme, 0) != 0)
        return std::nullopt;
    const std::string rest = endpoint.substr(scheme.size());
    const std::size_t colon = rest.rfind(':');
    if (colon == std::string::npos || colon + 1 >= rest.size())
        return std::nullopt;
    char* end = nullptr;
    const long port = std::strtol(rest.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || port <= 0 || port > 65535)
        return std::nullopt;
    std::string host = rest.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    return ParsedEndpoint{host, static_cast<std::uint16_t>(port)};
}

#ifdef __linux__
// The address and port of a socket's end, as getsockname/getpeername give it.
struct SocketEnd {
    int family = 0;
    std::string address;
    std::uint16_t port = 0;
};

template <typename Query>
std::optional<SocketEnd> socketEnd(int fd, Query query) {
    sockaddr_storage storage{};
    socklen_t length = sizeof storage;
    if (query(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0)
        return std::nullopt;
    SocketEnd end;
    end.family = storage.ss_family;
    if (storage.ss_family == AF_INET) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(&storage);
        end.address.assign(reinterpret_cast<const char*>(&v4->sin_addr), sizeof v4->sin_addr);
        end.port = ntohs(v4->sin_port);
    } else if (storage.ss_family == AF_INET6) {
        const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&storage);
        end.address.assign(reinterpret_cast<const char*>(&v6->sin6_addr), sizeof v6->sin6_addr);
        end.port = ntohs(v6->sin6_port);
    } else {
        return std::nullopt;
    }
    return end;
}

bool intOption(int fd, int option, int expected) {
    int value = 0;
    socklen_t length = sizeof value;
    return getsockopt(fd, SOL_SOCKET, option, &value, &length) == 0 && value == expected;
}
#endif

} // namespace

ConnectionPacer::ConnectionPacer(double bytesPerSecond, const std::string& localEndpoint,
                                 const std::vector<std::string>& remoteEndpoints) {
    // Below a few kB/s pacing would starve the protocol's own messages; such a figure is no link's rate.
    constexpr double kLeast = 16.0 * 1024;
    rate_ = std::isfinite(bytesPerSecond) && bytesPerSecond >= kLeast
                ? static_cast<std::uint64_t>(std::min(bytesPerSecond, 1e15))
                : 0;
    if (const auto local = parseTcpEndpoint(localEndpoint))
        localPort_ = local->port;
#ifdef __linux__
    for (const std::string& endpoint : remoteEndpoints) {
        const auto parsed = parseTcpEndpoint(endpoint);
        if (!parsed)
            continue;
        Remote remote;
        remote.port = parsed->port;
        in_addr v4{};
        in6_addr v6{};
        // A host name matches any address on that port: the pacer cannot resolve names without blocking.
        if (inet_pton(AF_INET, parsed->host.c_str(), &v4) == 1) {
            remote.family = AF_INET;
            remote.address.assign(reinterpret_cast<const char*>(&v4), sizeof v4);
        } else if (inet_pton(AF_INET6, parsed->host.c_str(), &v6) == 1) {
            remote.family = AF_INET6;
            remote.address.assign(reinterpret_cast<const char*>(&v6), sizeof v6);
        }
        remotes_.push_back(std::move(remote));
    }
#else
    (void)remoteEndpoints;
#endif
}

bool ConnectionPacer::matches([[maybe_unused]] int fd) const {
#ifdef __linux__
    if (!intOption(fd, SO_TYPE, SOCK_STREAM) || !intOption(fd, SO_PROTOCOL, IPPROTO_TCP))
        return false;
    // Only connected sockets have a peer: a listening socket (whose accepted connections would inherit
    // the cap long after this round) fails here.
    const auto peer = socketEnd(fd, ::getpeername);
    const auto local = socketEnd(fd, ::getsockname);
    if (!peer || !local)
        return false;
    if (localPort_ && local->port == *localPort_)
        return true;
    for (const Remote& remote : remotes_)
        if (peer->port == remote.port &&
            (remote.address.empty() || (peer->family == remote.family && peer->address == remote.address)))
            return true;
#endif
    return false;
}

void ConnectionPacer::refresh() {
#ifdef __linux__
    if (rate_ == 0 || (!localPort_ && remotes_.empty()))
        return;
    DIR* directory = opendir("/proc/self/fd");
    if (!directory)
        return;
    const int own = dirfd(directory);
    while (const dirent* entry = readdir(directory)) {
        char* end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || fd == own || fd < 0 ||
            fd > std::numeric_limits<int>::max())
            continue;
        struct stat status {};
        if (fstat(static_cast<int>(fd), &status) != 0 || !S_ISSOCK(status.st_mode) ||
            paced_.count(status.st_ino) || !matches(static_cast<int>(fd)))
            continue;
        const unsigned long rate = rate_;
        if (setsockopt(static_cast<int>(fd), SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof rate) == 0)
            paced_.insert(status.st_ino);
    }
    closedir(directory);
#endif
}

std::optional<std::uint64_t> ConnectionPacer::pacingRate([[maybe_unused]] int fd) {
#ifdef __linux__
    unsigned long rate = 0;
    socklen_t length = sizeof rate;
    if (getsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, &length) != 0)
        return std::nullopt;
    return length == sizeof rate ? rate : static_cast<std::uint32_t>(rate);
#else
    return std::nullopt;
#endif
}

} // namespace sahaj::net
