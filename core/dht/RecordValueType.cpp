#include "core/dht/RecordValueType.h"

#include "core/dht/OpenDhtBytes.h"
#include "core/dht/OwnerKeyQuota.h"
#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordReader.h"
#include "core/dht/RecordRules.h"

namespace sahaj::dht {

::dht::ValueType RecordValueType::make(std::shared_ptr<RecordReader> reader,
                                       std::shared_ptr<OwnerKeyQuota> quota, RunClock clock) {
    auto store = [reader, quota, clock](::dht::InfoHash key, std::shared_ptr<::dht::Value>& value,
                                        const ::dht::InfoHash&, const ::dht::SockAddr&) {
        const auto now = clock();
        const QByteArrayView keyHash = bytesOf(key);
        const auto record = reader->read(keyHash, value->id, bytesOf(value->data), now);
        return record && now < record->expiresAt &&
               quota->admit(record->owner, keyHash, record->expiresAt, now);
    };
    auto edit = [reader, quota, clock = std::move(clock)](
                    ::dht::InfoHash key, const std::shared_ptr<::dht::Value>& stored,
                    std::shared_ptr<::dht::Value>& incoming, const ::dht::InfoHash&, const ::dht::SockAddr&) {
        const auto now = clock();
        const QByteArrayView keyHash = bytesOf(key);
        const auto fresh = reader->read(keyHash, incoming->id, bytesOf(incoming->data), now);
        if (!fresh || now >= fresh->expiresAt)
            return false;
        const auto held = RecordEnvelope::decode(bytesOf(stored->data));
        if (held && (held->owner() != fresh->owner || fresh->issuedAt < held->issuedAt()))
            return false;
        return quota->admit(fresh->owner, keyHash, fresh->expiresAt, now);
    };
    return ::dht::ValueType(kId, "sahaj.record", RecordRules::kMaxTtl, std::move(store), std::move(edit));
}

} // namespace sahaj::dht
