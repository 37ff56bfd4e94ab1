#include "core/dht/RecordReader.h"

#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordRules.h"

#include <algorithm>
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
        // Well made and admitted, but dated in this clock's future: refused, and a sign of this clock.
        if (watchClock_ && envelope && envelope->issuedAt() > now + RecordRules::kMaxClockSkew &&
            mayCheckFutureRecord() &&
            RecordRules::judge(*envelope, valueId, keyHash, envelope->issuedAt()) == RecordVerdict::Live &&
            (!admission_ || admittedToken(envelope->owner(), envelope->credential(), envelope->issuedAt())))
            noteIssueTime(envelope->owner(), envelope->issuedAt(), now);
        return std::nullopt;
    }
    if (watchClock_)
        noteIssueTime(envelope->owner(), envelope->issuedAt(), now);
    return DhtRecord{envelope->owner(), envelope->payload(), envelope->issuedAt(), envelope->expiresAt(),
                     std::move(token)};
}

void RecordReader::noteIssueTime(const security::PeerId& owner,
                                 std::chrono::system_clock::time_point issuedAt,
                                 std::chrono::system_clock::time_point now) {
    const std::int64_t offset = std::chrono::duration_cast<std::chrono::milliseconds>(issuedAt - now).count();
    const std::lock_guard lock(timesMutex_);
    if (freshestOffsetMs_.size() >= kMaxOwnersTimed && !freshestOffsetMs_.contains(owner))
        freshestOffsetMs_.clear();
    auto [entry, added] = freshestOffsetMs_.emplace(owner, offset);
    if (!added)
        entry->second = std::max(entry->second, offset);
}

bool RecordReader::mayCheckFutureRecord() {
    const auto now = std::chrono::steady_clock::now();
    const std::lock_guard lock(timesMutex_);
    if (now - futureWindowStart_ >= kFutureCheckWindow) {
        futureWindowStart_ = now;
        futureChecks_ = 0;
    }
    return ++futureChecks_ <= kMaxFutureChecks;
}

std::vector<std::int64_t> RecordReader::freshestOffsetsMs() const {
    const std::lock_guard lock(timesMutex_);
    std::vector<std::int64_t> offsets;
    offsets.reserve(freshestOffsetMs_.size());
    for (const auto& [owner, offset] : freshestOffsetMs_)
        offsets.push_back(offset);
    return offsets;
}

std::optional<security::AccessToken>
RecordReader::admittedToken(const security::PeerId& owner, QByteArrayView credential,
                            std::chrono::system_clock::time_point now) const {
    // A revoked owner is refused before its token costs a signature check.
    if (credential.isEmpty() || (admission_->revoked && admission_->revoked->contains(owner)))
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
