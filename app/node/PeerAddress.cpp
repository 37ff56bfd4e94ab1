#include "app/node/PeerAddress.h"

#include "app/node/UsageError.h"

#include <QStringList>

namespace sahaj::node {

PeerAddress PeerAddress::parse(const QString& option, const QString& value, bool allowZeroPort) {
    const qsizetype colon = value.lastIndexOf(':');
    bool portOk = false;
    const uint port = colon > 0 ? value.mid(colon + 1).toUInt(&portOk) : 0;
    const QString host = colon > 0 ? value.left(colon) : QString();
    const QStringList octets = host.split('.');
    bool hostOk = octets.size() == 4;
    for (const QString& octet : octets) {
        bool ok = false;
        hostOk = hostOk && !octet.isEmpty() && octet.size() <= 3 && octet.toUInt(&ok) <= 255 && ok;
    }
    if (!portOk || port > 65535 || (port == 0 && !allowZeroPort) || !hostOk)
        throw UsageError(QStringLiteral("--%1 must be IPV4:PORT (for example 127.0.0.1:4600), got '%2'")
                             .arg(option, value)
                             .toStdString());
    return {host, static_cast<std::uint16_t>(port)};
}

} // namespace sahaj::node
