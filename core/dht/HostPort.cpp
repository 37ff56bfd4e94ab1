#include "core/dht/HostPort.h"

#include <stdexcept>

namespace sahaj::dht {

HostPort HostPort::parse(const QString& text) {
    const auto fail = [&]() {
        throw std::invalid_argument(
            QStringLiteral("'%1' is not a host:port address (e.g. 203.0.113.5:4222 or [2001:db8::1]:4222)")
                .arg(text)
                .toStdString());
    };
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        fail();
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    else if (host.contains(QLatin1Char(':')))
        fail(); // a bare IPv6 address: its last group would be mistaken for the port
    bool numeric = false;
    const uint port = text.mid(colon + 1).toUInt(&numeric);
    if (host.isEmpty() || !numeric || port == 0 || port > 65535)
        fail();
    return HostPort{host, static_cast<std::uint16_t>(port)};
}

} // namespace sahaj::dht
