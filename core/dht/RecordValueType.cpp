#include "core/dht/RecordValueType.h"

#include "core/dht/OpenDhtBytes.h"
#include "core/dht/RecordEnvelope.h"
#include "core/dht/RecordReader.h"
#include "core/dht/RecordRules.h"

namespace sahaj::dht {

::dht::ValueType RecordValueType::make(std::shared_ptr<RecordReader> reader) {
    auto store = [reader](::dht::InfoHash key, std::shared_ptr<::dht::Value>& value, const ::dht::InfoHash&,
                          const ::dht::SockAddr&) {
        const auto now = RecordEnvelope::Clock::now();
        const auto record = reader->read(bytesOf(key), value->id, bytesOf(value->data), now);
        return record && now < record->expiresAt;
    };
    auto edit = [reader](::dht::InfoHash key, const std::shared_ptr<::dht::Value>& stored,
                         std::shared_ptr<::dht::Value>& incoming, const ::dht::InfoHash&,
                         const ::dht::SockAddr&) {
        const auto now = RecordEnvelope::Clock::now();
        const auto fresh = reader->read(bytesOf(key), incoming->id, bytesOf(incoming->data), now);
        if (!fresh || now >= fresh->expiresAt)
            return false;
        const auto held = RecordEnvelope::decode(bytesOf(stored->data));
        return !held || (held->owner() == fresh->owner && fresh->issuedAt >= held->issuedAt());
    };
    return ::dht::ValueType(kId, "sahaj.record", RecordRules::kMaxTtl, std::move(store), std::move(edit));
}

} // namespace sahaj::dht
