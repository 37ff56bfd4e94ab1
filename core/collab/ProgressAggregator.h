#pragma once

#include "core/collab/GlobalProgress.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::collab {

struct PeerProgress;

// Turns the peers' progress records into the collaboration's GlobalProgress (hivemind's
// ProgressTracker._parse_swarm_progress_data), at an explicit time `now`. Every record but this peer's own
// (named by `localPeerId`) is a claim of another peer, and any admitted peer may lie (docs/security.md):
// no single record decides the epoch or ends it.
//
//   - live records: those with expiresAt > now that PeerProgressRules accepts (others are skipped);
//   - epoch: the highest of the local epoch, the coordinator's epoch (its token's role comes from the
//     organiser) and the epoch that a quorum of the other live nodes has reached: of n such records, at
//     least epochQuorum(n) = 1 for n = 1, else max(2, n / 3 + 1), must be at that epoch or beyond. One
//     peer claiming a far epoch (or 2^64 − 1) cannot make everyone think they are behind; a third of the
//     swarm that moved ahead, or the coordinator, can, as honest peers left out of a round need. Clients
//     count only where no other node is live: a node ends an epoch only by averaging, and clients average
//     with nodes.
//   - accumulated: Σ over live records at that epoch of samples + rate × elapsed, where
//     elapsed = clamp(now − measuredAt, 0, maxExtrapolation). A record's own expiry does not bound the
//     extrapolation, because the expiry is the peer's claim too (the DHT lets a record live up to 10
//     minutes): a record whose peer fell silent, or whose clock is behind, would otherwise keep adding
//     rate × minutes of samples nobody computes. maxExtrapolation should be about the longest interval at
//     which honest peers republish (ProgressRefreshOptions::maxPeriod); a clock ahead of ours gives
//     elapsed 0, never negative samples.
//   - each other peer's share: its rate counts at most kShareFactor × the lower median of the rates of
//     the records at that epoch that contribute (samples or rate above 0, this peer's own included), and
//     its extrapolated samples at most kShareFactor × their lower median. One record claiming the whole
//     batch cannot end every epoch after a micro-batch; an honest peer much faster than the median
//     counts for less than it did, which only makes the epoch end later (its gradient's averaging
//     weight is bounded the same way, WeightBounds).
//   - rate: Σ of the rates of the live records at that epoch, clients included. hivemind sums every peer;
//     a peer at an older epoch adds nothing to this epoch's batch until it has caught up, so counting it
//     would promise an ETA that never comes.
//   - ETA: now when the target is reached; else now + (target − accumulated) / rate; none at rate 0.
//   - claimed ETA: the same from the records' own figures, unbounded (GlobalProgress::claimedEta): when to
//     start looking for a group, never when to end the epoch.
//
// Records are expected one per peer (ProgressTracker keeps each peer's newest).
class ProgressAggregator {
public:
    using TimePoint = std::chrono::system_clock::time_point;

    // An ETA further away than this is reported as none: it means "not in sight", and it keeps time
    // arithmetic far from overflow for tiny rates.
    static constexpr std::chrono::hours kFarthestEta{24 * 365};
    // How many times the median contribution one other peer may count for (see above).
    static constexpr double kShareFactor = 2.0;

    // Of n live records of other nodes, how many must have reached an epoch for it to be the
    // collaboration's.
    static std::size_t epochQuorum(std::size_t n);

    // Throws std::invalid_argument for a target of 0 or above PeerProgressRules::kMaxSamples, or a
    // maxExtrapolation outside [0, 1 day].
    ProgressAggregator(std::uint64_t targetBatchSize, std::chrono::milliseconds maxExtrapolation);

    // `records` may hold this peer's own record, named by `localPeerId` (empty: every record is another
    // peer's); `localEpoch` is this peer's epoch.
    GlobalProgress aggregate(const std::vector<PeerProgress>& records, std::uint64_t localEpoch,
                             TimePoint now, const std::string& localPeerId = {}) const;

    // `record`'s samples at `now`, extrapolated as above.
    double samplesAt(const PeerProgress& record, TimePoint now) const;

    std::uint64_t targetBatchSize() const { return targetBatchSize_; }
    std::chrono::milliseconds maxExtrapolation() const { return maxExtrapolation_; }

private:
    // now when `samples` reach the target; else when they will at `samplesPerSecond`; none at rate 0 or
    // past kFarthestEta.
    std::optional<TimePoint> etaOf(double samples, double samplesPerSecond, TimePoint now) const;

    std::uint64_t targetBatchSize_;
    std::chrono::milliseconds maxExtrapolation_;
};

} // namespace sahaj::collab
