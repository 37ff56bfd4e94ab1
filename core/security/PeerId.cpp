#include "core/security/PeerId.h"

#include <QHashFunctions>

#include <algorithm>
#include <stdexcept>

namespace sahaj::security {

namespace {

bool isHexDigit(QChar c) {
    const char16_t u = c.unicode();
    return (u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F');
}

} // namespace

PeerId PeerId::fromBytes(QByteArrayView bytes) {
    if (bytes.size() != kSize)
        throw std::invalid_argument(
            QStringLiteral("a peer id is %1 bytes, got %2").arg(kSize).arg(bytes.size()).toStdString());
    PeerId id;
    std::copy(bytes.begin(), bytes.end(), id.bytes_.begin());
    return id;
}

bool PeerId::isHex(QStringView hex) {
    return hex.size() == 2 * kSize && std::all_of(hex.begin(), hex.end(), isHexDigit);
}

PeerId PeerId::fromHex(QStringView hex) {
    // QByteArray::fromHex skips invalid characters silently, so check the text first.
    if (!isHex(hex))
        throw std::invalid_argument(QStringLiteral("'%1' is not a peer id (expected %2 hex digits)")
                                        .arg(hex.left(2 * kSize + 8))
                                        .arg(2 * kSize)
                                        .toStdString());
    return fromBytes(QByteArray::fromHex(hex.toLatin1()));
}

QByteArray PeerId::bytes() const {
    return QByteArray(reinterpret_cast<const char*>(bytes_.data()), kSize);
}

QString PeerId::toHex() const {
    return QString::fromLatin1(bytes().toHex());
}

QString PeerId::shortHex() const {
    return toHex().left(8);
}

bool PeerId::isNull() const {
    return std::all_of(bytes_.begin(), bytes_.end(), [](std::uint8_t b) { return b == 0; });
}

size_t qHash(const PeerId& id, size_t seed) noexcept {
    return qHashBits(id.raw().data(), id.raw().size(), seed);
}

} // namespace sahaj::security

std::size_t std::hash<sahaj::security::PeerId>::operator()(const sahaj::security::PeerId& id) const noexcept {
    return sahaj::security::qHash(id, qGlobalQHashSeed());
}
