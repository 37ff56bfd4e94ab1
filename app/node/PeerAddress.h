#pragma once

#include <QString>

#include <cstdint>

namespace sahaj::node {

// HOST:PORT as the commands take it (--listen, --coordinator): a numeric IPv4 address and a port.
struct PeerAddress {
    QString host;
    std::uint16_t port = 0;

    // Throws UsageError naming `option` for anything else. allowZeroPort: "any free port".
    static PeerAddress parse(const QString& option, const QString& value, bool allowZeroPort);
    QString toString() const { return host + ':' + QString::number(port); }
};

} // namespace sahaj::node
