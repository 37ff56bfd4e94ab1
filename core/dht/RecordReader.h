#pragma once

#include "core/dht/DhtRecord.h"
#include "core/dht/RecordAdmission.h"

#include <QByteArrayView>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace sahaj::dht {

// Turns DHT values into records: decodes the envelope, applies RecordRules and, for a run that admits
// peers by token, the RecordAdmission rule; counts what it refuses. Shared between the node's callers and
// OpenDHT's thread: the counter is atomic, and the tokens already verified (every read brings the same
// peers' tokens again, and each costs an Ed25519 verification) are kept under a mutex.
class RecordReader {
public:
    // No admission: any correctly signed record is read (networks that admit anyone, tests of the DHT).
    // watchClock: keep the issue times behind freshestOffsetsMs (a reader that looks for a run to join);
    // every other reader spends nothing on them, nor a signature check on a record from the future.
    explicit RecordReader(std::optional<RecordAdmission> admission = std::nullopt, bool watchClock = false)
        : admission_(std::move(admission)), watchClock_(watchClock) {}

    // The valid record in `data` (value `valueId` under the key hashing to `keyHash`), expired or not, or
    // nullopt for an invalid one (malformed, forged, implausible), which is counted. Expired records are
    // returned because they still hide their owner's older records (see LatestRecords).
    std::optional<DhtRecord> read(QByteArrayView keyHash, std::uint64_t valueId, QByteArrayView data,
                                  std::chrono::system_clock::time_point now);

    // Values refused as invalid since construction.
    std::uint64_t rejected() const { return rejected_.load(std::memory_order_relaxed); }

    // For a reader that watches the clock (empty otherwise): for each owner whose correctly signed records
    // this reader has seen (live, expired, or dated further
    // in the future than RecordRules allows), the newest one's issue time minus this computer's time when
    // it was read, in ms: what tells a peer that its own clock is off (VolunteerAdmission says so).
    std::vector<std::int64_t> freshestOffsetsMs() const;

private:
    // The owner's token when the record's credential admits it to the run at `now`, else nullopt.
    std::optional<security::AccessToken> admittedToken(const security::PeerId& owner,
                                                       QByteArrayView credential,
                                                       std::chrono::system_clock::time_point now) const;

    // Checking the signature of a record dated in the future costs what the cheap checks spared: a few per
    // window, so that a flood of them costs nothing more (one suffices to tell this clock's side).
    bool mayCheckFutureRecord();
    void noteIssueTime(const security::PeerId& owner, std::chrono::system_clock::time_point issuedAt,
                       std::chrono::system_clock::time_point now);

    const std::optional<RecordAdmission> admission_;
    const bool watchClock_;
    std::atomic<std::uint64_t> rejected_{0};
    static constexpr std::size_t kMaxOwnersTimed = 1024; // then forgotten all at once
    mutable std::mutex timesMutex_;
    std::map<security::PeerId, std::int64_t> freshestOffsetMs_;
    static constexpr auto kFutureCheckWindow = std::chrono::seconds(10);
    static constexpr int kMaxFutureChecks = 32;
    std::chrono::steady_clock::time_point futureWindowStart_{};
    int futureChecks_ = 0;
    static constexpr std::size_t kMaxVerifiedTokens = 4096; // then forgotten all at once
    mutable std::mutex verifiedMutex_;
    mutable std::map<QByteArray, security::AccessToken> verified_; // signature and run checked
};

} // namespace sahaj::dht
