#pragma once

#include <QString>

#include <cstdint>

namespace sahaj::dht {

// A "host:port" address as users write it: a name or IPv4 address, or an IPv6 address in brackets.
struct HostPort {
    QString host;
    std::uint16_t port = 0;

    // Throws std::invalid_argument, quoting `text`, unless it is host:port with a port in 1..65535.
    static HostPort parse(const QString& text);
};

} // namespace sahaj::dht
