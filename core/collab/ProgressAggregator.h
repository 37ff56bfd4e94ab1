#pragma once

#include "core/collab/GlobalProgress.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace sahaj::collab {

struct PeerProgress;

// Turns the peers' progress records into the collaboration's GlobalProgress (hivemind's
// ProgressTracker._parse_swarm_progress_data), at an explicit time `now`:
//
//   - live records: those with expiresAt > now that PeerProgressRules accepts (others are skipped);
//   - epoch: the highest epoch of a live non-client record; with clients only, the highest of all; with no
//     live record, the caller's local epoch. Clients cannot move the epoch while a node is around: a node
//     ends an epoch only by averaging, and clients average with nodes.
//   - accumulated: Σ over live records at that epoch of samples + rate × elapsed, where
//     elapsed = clamp(now − measuredAt, 0, maxExtrapolation). A record's own expiry does not bound the
//     extrapolation, because the expiry is the peer's claim too (the DHT lets a record live up to 10
//     minutes): a record whose peer fell silent, or whose clock is behind, would otherwise keep adding
//     rate × minutes of samples nobody computes. maxExtrapolation should be about the longest interval at
//     which honest peers republish (ProgressRefreshOptions::maxPeriod); a clock ahead of ours gives
//     elapsed 0, never negative samples.
//   - rate: Σ of the rates of the live records at that epoch, clients included. hivemind sums every peer;
//     a peer at an older epoch adds nothing to this epoch's batch until it has caught up, so counting it
//     would promise an ETA that never comes.
//   - ETA: now when the target is reached; else now + (target − accumulated) / rate; none at rate 0.
//
// Records are expected one per peer (ProgressTracker keeps each peer's newest).
class ProgressAggregator {
public:
    using TimePoint = std::chrono::system_clock::time_point;

    // An ETA further away than this is reported as none: it means "not in sight", and it keeps time
    // arithmetic far from overflow for tiny rates.
    static constexpr std::chrono::hours kFarthestEta{24 * 365};

    // Throws std::invalid_argument for a target of 0 or above PeerProgressRules::kMaxSamples, or a
    // maxExtrapolation outside [0, 1 day].
    ProgressAggregator(std::uint64_t targetBatchSize, std::chrono::milliseconds maxExtrapolation);

    GlobalProgress aggregate(const std::vector<PeerProgress>& records, std::uint64_t localEpoch,
                             TimePoint now) const;

    // `record`'s samples at `now`, extrapolated as above.
    double samplesAt(const PeerProgress& record, TimePoint now) const;

    std::uint64_t targetBatchSize() const { return targetBatchSize_; }
    std::chrono::milliseconds maxExtrapolation() const { return maxExtrapolation_; }

private:
    std::uint64_t targetBatchSize_;
    std::chrono::milliseconds maxExtrapolation_;
};

} // namespace sahaj::collab
