#include "core/admission/RequesterAddress.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

namespace sahaj::admission {

namespace {

constexpr std::array<std::uint8_t, 12> kMappedPrefix{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

// The IPv6 address's bytes; nullopt for IPv4 (or not an address at all).
std::optional<std::array<std::uint8_t, 16>> ipv6Of(const std::string& peerAddress) {
    std::array<std::uint8_t, 16> bytes{};
    if (inet_pton(AF_INET6, peerAddress.c_str(), bytes.data()) != 1)
        return std::nullopt;
    return bytes;
}

bool mapped(const std::array<std::uint8_t, 16>& bytes) {
    return std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), bytes.begin());
}

QString ipv4Of(const std::array<std::uint8_t, 16>& bytes) {
    return QStringLiteral("%1.%2.%3.%4").arg(bytes[12]).arg(bytes[13]).arg(bytes[14]).arg(bytes[15]);
}

} // namespace

QString RequesterAddress::numeric(const std::string& peerAddress) {
    const auto bytes = ipv6Of(peerAddress);
    return bytes && mapped(*bytes) ? ipv4Of(*bytes) : QString::fromStdString(peerAddress);
}

QString RequesterAddress::keyOf(const std::string& peerAddress) {
    const auto ipv6 = ipv6Of(peerAddress);
    if (!ipv6 || mapped(*ipv6))
        return numeric(peerAddress);
    const std::array<std::uint8_t, 16>& bytes = *ipv6;
    QString network;
    for (std::size_t i = 0; i < 8; i += 2)
        network += QStringLiteral("%1:").arg((bytes[i] << 8) | bytes[i + 1], 0, 16);
    return network + QStringLiteral(":/64");
}

} // namespace sahaj::admission
