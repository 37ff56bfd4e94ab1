#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sahaj::collab {

// The collaboration's progress towards the end of its current epoch, estimated from the live progress
// records at time `at` (see ProgressAggregator).
struct GlobalProgress {
    using TimePoint = std::chrono::system_clock::time_point;

    std::uint64_t epoch = 0;
    std::uint64_t samplesReported = 0; // Σ of the figures the peers at `epoch` reported, each bounded
    double samplesAccumulated = 0.0;   // the same, extrapolated to `at` by each peer's rate
    std::uint64_t targetBatchSize = 0;
    double samplesPerSecond = 0.0; // Σ of the rates of the peers at `epoch`
    // When the target will be reached at the current rate; `at` when it already is, none when nobody at
    // `epoch` makes progress (or it is further away than ProgressAggregator::kFarthestEta).
    std::optional<TimePoint> eta;
    // The same with every peer's figures as it claims them, unbounded (so never later than `eta`, and set
    // whenever it is): when to start looking for a group
    // (ProgressTracker::shouldStartMatchmaking), never when to end the epoch. Bounded, a fast honest peer
    // counts for twice the median's rate, so a slow peer (a volunteer held to 20 % of the time) reckoned
    // the batch's end seconds late, looked for a group after the others' had begun, and lost its batch to
    // the state it then loaded, epoch after epoch. Early costs nothing: a group formed early waits for the
    // bounded figures (or the others' round) before it averages. A liar's claim makes peers look early.
    std::optional<TimePoint> claimedEta;
    int peers = 0;        // live records, every epoch and role
    int peersAtEpoch = 0; // of which at `epoch`
    int clients = 0;      // of which client-mode
    // Other peers whose records claim an epoch past `epoch` that no quorum follows (nor the coordinator):
    // lying, or a minority that moved ahead. By peer id, with the epoch each claims.
    std::vector<std::pair<std::string, std::uint64_t>> unfollowed;
    TimePoint at{};

    bool targetReached() const { return samplesAccumulated >= static_cast<double>(targetBatchSize); }

    // Whether a peer at `localEpoch` should end its epoch at `now` (hivemind's ready_to_update_epoch): the
    // batch is full, or was due to be full by now, or a peer that decides the epoch is already past ours.
    bool readyToEndEpoch(std::uint64_t localEpoch, TimePoint now) const {
        return targetReached() || (eta && *eta <= now) || epoch > localEpoch;
    }
};

} // namespace sahaj::collab
