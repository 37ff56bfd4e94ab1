#pragma once

#include <QString>

namespace sahaj::net {

// The local address this machine sends from to reach a host: what the kernel's routing table picks for
// it, read from a UDP socket connected to the host (connecting a UDP socket sends nothing). A peer binds
// its DHT node and its ROUTER there unless told otherwise: bound to loopback it could reach only peers on
// the same machine, and bound to every interface it would not know which address to announce.
class RouteSource {
public:
    // `host` is a numeric IPv4 address; empty when it is not one or no route leads to it.
    static QString toward(const QString& host);
    // A peer's default --listen: toward(host) and any free port ("ADDRESS:0"). Throws std::runtime_error
    // saying so when no route leads to `host`.
    static QString listenToward(const QString& host);
};

} // namespace sahaj::net
