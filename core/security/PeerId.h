#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringView>

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace sahaj::security {

// A peer's identity on the network: its Ed25519 public key, 32 raw bytes. There is no separate id to
// keep in sync with the key, so whoever proves possession of the key (a valid signature) is the peer.
// A default-constructed PeerId is all zeros and stands for "no peer" (isNull()).
class PeerId {
public:
    static constexpr qsizetype kSize = 32;

    PeerId() = default;

    // Throws std::invalid_argument unless `bytes` holds exactly kSize bytes.
    static PeerId fromBytes(QByteArrayView bytes);
    // Throws std::invalid_argument unless `hex` is exactly 64 hex digits (either case).
    static PeerId fromHex(QStringView hex);
    // Whether `hex` is exactly 64 hex digits (either case): what fromHex accepts.
    static bool isHex(QStringView hex);

    QByteArray bytes() const;
    const std::array<std::uint8_t, kSize>& raw() const { return bytes_; }
    // 64 lowercase hex digits.
    QString toHex() const;
    // The first 8 hex digits: enough to tell peers apart in logs, never for identification.
    QString shortHex() const;
    bool isNull() const;

    friend auto operator<=>(const PeerId&, const PeerId&) = default;

private:
    std::array<std::uint8_t, kSize> bytes_{};
};

// Seeded hashes: peer ids are chosen by (possibly hostile) peers, so buckets must not be predictable.
size_t qHash(const PeerId& id, size_t seed = 0) noexcept;

} // namespace sahaj::security

template <>
struct std::hash<sahaj::security::PeerId> {
    std::size_t operator()(const sahaj::security::PeerId& id) const noexcept;
};
