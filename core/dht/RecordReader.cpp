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
    const qint64 seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
    const QByteArray bytes = credential.toByteArray();
    std::optional<security::AccessToken> token;
    {
        const std::lock_guard lock(verifiedMutex_);
        if (const auto found = verified_.find(bytes); found != verified_.end())
            token = found->second;
    }
    if (!token) {
        try {
            security::AccessToken parsed = security::AccessToken::fromBytes(bytes);
            if (!parsed.check(admission_->organiser, admission_->runId, seconds).isEmpty())
                return std::nullopt;
            token = std::move(parsed);
        } catch (const std::invalid_argument&) {
            return std::nullopt; // malformed: not a token at all
        }
        const std::lock_guard lock(verifiedMutex_);
        if (verified_.size() >= kMaxVerifiedTokens)
            verified_.clear();
        verified_.emplace(bytes, *token);
    }
    if (token->peer() != owner || !token->checkTime(seconds).isEmpty())
        return std::nullopt;
    return token;
}

} // namespace sahaj::dht
