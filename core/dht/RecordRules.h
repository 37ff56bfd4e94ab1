#pragma once

#include "core/dht/RecordEnvelope.h"

#include <QByteArrayView>

#include <chrono>
#include <cstdint>

namespace sahaj::dht {

enum class RecordVerdict {
    Live,    // valid, and not yet expired
    Expired, // valid, but its time has passed: not an offence, and still its owner's latest word
    Invalid, // forged, malformed or implausible: ignored and counted
};

// What every Sahaj node (reader or storing node) accepts as a record.
//
// Times come from the owner's clock and are judged by the reader's, so clock skew shifts a record's
// life: a peer whose clock is ahead by s is seen s longer, one behind is seen s shorter (and not at all
// when s exceeds its ttl). A volunteer's node keeps the run's time rather than its own clock (DhtNode::now,
// the coordinator's: docs/security.md), so the skew left is what that measurement misses. Records claiming
// to be issued more than kMaxClockSkew in the reader's future are refused, and no record may claim to live
// longer than kMaxTtl, so a wrong or hostile clock cannot make a record outlive its owner by more than that.
class RecordRules {
public:
    static constexpr std::chrono::seconds kMaxTtl{600};
    static constexpr std::chrono::seconds kMaxClockSkew{60};

    // The verdict on `envelope`, published in DHT value `valueId` under the key hashing to `keyHash`, at
    // time `now`. A record must sit in its owner's slot (valueIdFor): one record per owner and key.
    static RecordVerdict judge(const RecordEnvelope& envelope, std::uint64_t valueId, QByteArrayView keyHash,
                               RecordEnvelope::Clock::time_point now);

    // The DHT value id of `owner`'s record under any key: its first 8 bytes, big-endian. Public keys are
    // uniform, so two owners share a slot with negligible probability, and finding a key that takes
    // another's slot costs ~2^64 work. Never 0 (OpenDHT's "no id"): a key whose prefix is 0 gets 1.
    static std::uint64_t valueIdFor(const security::PeerId& owner);
};

} // namespace sahaj::dht
