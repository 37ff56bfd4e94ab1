#include "core/dht/RecordReader.h"

#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordRules.h"

namespace sahaj::dht {

std::optional<DhtRecord> RecordReader::read(QByteArrayView keyHash, std::uint64_t valueId,
                                            QByteArrayView data, std::chrono::system_clock::time_point now) {
    const auto envelope = RecordEnvelope::decode(data);
    const RecordVerdict verdict =
        envelope ? RecordRules::judge(*envelope, valueId, keyHash, now) : RecordVerdict::Invalid;
    if (verdict == RecordVerdict::Invalid) {
        rejected_.fetch_add(1, std::memory_order_relaxed);
        return std::nullopt;
    }
    return DhtRecord{envelope->owner(), envelope->payload(), envelope->issuedAt(), envelope->expiresAt()};
}

} // namespace sahaj::dht
