#pragma once

#include "core/collab/GlobalProgress.h"
#include "core/collab/PeerProgress.h"
#include "core/collab/ProgressAggregator.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::collab {

struct ProgressTrackerOptions {
    std::string peerId; // this peer's 32-byte id
    bool clientMode = false;
    std::uint64_t targetBatchSize = 4096;
    // How long this peer's published record lives: well above ProgressRefreshOptions::maxPeriod, so that
    // a record outlives the gap to its replacement plus DHT delays (hivemind's metadata_expiration).
    std::chrono::milliseconds recordTtl{60'000};
    // See ProgressAggregator: about the longest republishing interval of honest peers.
    std::chrono::milliseconds maxExtrapolation{30'000};
};

// This peer's view of the collaboration's progress (hivemind's ProgressTracker without its threads and
// DHT calls): the local figures, the latest records of the other peers, and the decisions made from them.
// The caller moves records in and out (publishing localRecord(), feeding fetched records to update()) on
// the schedule ProgressRefreshPolicy sets, and passes the time to every call.
//
// Remote records are untrusted: update() ignores records that break PeerProgressRules (and counts them),
// records of this peer's own id (an older copy of what it published), and expired ones; of several records
// of one peer it keeps the one measured last. This peer's own figures always come from the local state,
// which is fresher than anything read back from the DHT.
//
// Not thread-safe: the collaboration thread owns it.
class ProgressTracker {
public:
    using TimePoint = std::chrono::system_clock::time_point;

    // Throws std::invalid_argument for a peer id that is not 32 bytes, a target of 0 or above
    // PeerProgressRules::kMaxSamples, a ttl outside (0, 10 min] (the DHT refuses longer lives, see
    // dht::RecordRules::kMaxTtl) or an extrapolation bound outside [0, 1 day].
    explicit ProgressTracker(ProgressTrackerOptions options, std::uint64_t epoch = 0);

    // The local figures: `samplesAccumulated` in the current epoch so far, at the rate the
    // ThroughputEstimator measures. Throws std::invalid_argument for figures PeerProgressRules would refuse.
    void reportLocal(std::uint64_t samplesAccumulated, double samplesPerSecond, TimePoint now);
    // The local peer moved to `newEpoch` (after an optimizer step, or after loading a newer state): its
    // accumulation starts again from 0; the rate is kept. Throws std::invalid_argument unless newEpoch is
    // above the current epoch.
    void onEpochCompleted(std::uint64_t newEpoch, TimePoint now);

    // The record to publish now: the local figures as last reported, expiring at now + recordTtl.
    PeerProgress localRecord(TimePoint now) const;

    // Adds what was just fetched to the other peers' records: each peer's newest record is held while it is
    // live and a reading had it within kUnseenGrace, so that a reading that misses some forgets nobody; at
    // most kMaxRemotePeers (the newest measured).
    void update(const std::vector<PeerProgress>& records, TimePoint now);
    static constexpr std::size_t kMaxRemotePeers = 4096;
    static constexpr std::chrono::seconds kUnseenGrace{10};

    // The estimate from the local figures and the other peers' records still live at `now`.
    GlobalProgress globalProgress(TimePoint now) const;
    // GlobalProgress::readyToEndEpoch for this peer at `now`.
    bool readyToEndEpoch(TimePoint now) const;
    // Whether to start looking for a group: ready, or the ETA as the peers claim it
    // (GlobalProgress::claimedEta) is within `lead` of now. Group formation takes seconds; starting it before
    // the batch is full lets it overlap the last micro-batches.
    bool shouldStartMatchmaking(TimePoint now, std::chrono::milliseconds lead) const;

    // The other peers whose live records say they are at `epoch` (clients included): who a leader can
    // expect to join its group for that epoch.
    std::vector<std::string> peersAt(std::uint64_t epoch, TimePoint now) const;
    // The other peers whose live records say they began the gradient round of group `groupId` at `epoch`
    // (PeerProgress::averagingGroup): their own word, which RoundStartQuorum counts only against most of
    // the group's members.
    std::vector<std::string> peersAveraging(const std::string& groupId, std::uint64_t epoch,
                                            TimePoint now) const;

    std::uint64_t localEpoch() const { return epoch_; }
    std::uint64_t localSamples() const { return samples_; }
    // Remote records held after the last update() (live at that time, one per peer).
    std::size_t remotePeers() const { return remote_.size(); }
    const std::vector<PeerProgress>& remoteRecords() const { return remote_; }
    // Remote records refused by PeerProgressRules since construction.
    std::uint64_t rejectedRecords() const { return rejected_; }

private:
    ProgressTrackerOptions options_;
    ProgressAggregator aggregator_;
    std::uint64_t epoch_;
    std::uint64_t samples_ = 0;
    double samplesPerSecond_ = 0.0;
    std::optional<WallTimeMs> measuredAt_; // none until the first report: then the figures are as of now
    std::vector<PeerProgress> remote_;
    std::vector<TimePoint> seen_; // per record of remote_: the last reading that had it
    std::uint64_t rejected_ = 0;
};

} // namespace sahaj::collab
