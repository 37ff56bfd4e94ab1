#include "core/dht/RecordRules.h"

#include <QtEndian>

namespace sahaj::dht {

RecordVerdict RecordRules::judge(const RecordEnvelope& envelope, std::uint64_t valueId,
                                 QByteArrayView keyHash, RecordEnvelope::Clock::time_point now) {
    const auto issuedAt = envelope.issuedAt();
    const auto expiresAt = envelope.expiresAt();
    // Cheap checks first: the signature is checked only for records that pass them.
    if (valueId != valueIdFor(envelope.owner()) || expiresAt <= issuedAt || expiresAt - issuedAt > kMaxTtl ||
        issuedAt > now + kMaxClockSkew || !envelope.hasValidSignature(keyHash))
        return RecordVerdict::Invalid;
    return now < expiresAt ? RecordVerdict::Live : RecordVerdict::Expired;
}

std::uint64_t RecordRules::valueIdFor(const security::PeerId& owner) {
    const std::uint64_t id = qFromBigEndian<std::uint64_t>(owner.raw().data());
    return id == 0 ? 1 : id;
}

} // namespace sahaj::dht
