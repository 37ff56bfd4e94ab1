#include "core/admission/RequesterAddress.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstdint>

namespace sahaj::admission {

QString RequesterAddress::keyOf(const std::string& peerAddress) {
    std::array<std::uint8_t, 16> bytes{};
    if (inet_pton(AF_INET6, peerAddress.c_str(), bytes.data()) != 1)
        return QString::fromStdString(peerAddress); // IPv4 (or not an address at all)
    constexpr std::array<std::uint8_t, 12> kMappedPrefix{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), bytes.begin()))
        return QStringLiteral("%1.%2.%3.%4").arg(bytes[12]).arg(bytes[13]).arg(bytes[14]).arg(bytes[15]);
    QString network;
    for (std::size_t i = 0; i < 8; i += 2)
        network += QStringLiteral("%1:").arg((bytes[i] << 8) | bytes[i + 1], 0, 16);
    return network + QStringLiteral(":/64");
}

} // namespace sahaj::admission
