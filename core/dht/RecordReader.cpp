#include "core/dht/RecordReader.h"

#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordRules.h"

#include <stdexcept>

namespace sahaj::dht {

std::optional<DhtRecord> RecordReader::read(QByteArrayView keyHash, std::uint64_t valueId,
                                            QByteArrayView data, std::chrono::system_clock::time_point now) {
    const auto envelope = RecordEnvelope::decode(data);
    const RecordVerdict verdict =
        envelope ? RecordRules::judge(*envelope, valueId, keyHash, now) : RecordVerdict::Invalid;
    std::optional<security::AccessToken> token;
    if (verdict != RecordVerdict::Invalid && admission_)
        token = admittedToken(envelope->owner(), envelope->credential(), now);
    if (verdict == RecordVerdict::Invalid || (admission_ && !token)) {
        rejected_.fetch_add(1, std::memory_order_relaxed);
        return std::nullopt;
    }
    return DhtRecord{envelope->owner(), envelope->payload(), envelope->issuedAt(), envelope->expiresAt(),
                     std::move(token)};
}

std::optional<security::AccessToken>
RecordReader::admittedToken(const security::PeerId& owner, QByteArrayView credential,
                            std::chrono::system_clock::time_point now) const {
    if (credential.isEmpty())
        return std::nullopt;
    try {
        security::AccessToken token = security::AccessToken::fromBytes(credential);
        const qint64 seconds =
            std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
        if (token.peer() != owner ||
            !token.check(admission_->organiser, admission_->runId, seconds).isEmpty())
            return std::nullopt;
        return token;
    } catch (const std::invalid_argument&) {
        return std::nullopt; // malformed: not a token at all
    }
}

} // namespace sahaj::dht
