#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace sahaj::collab {

struct GlobalProgress;

struct ProgressRefreshOptions {
    double etaFraction = 0.1; // refresh this often relative to the time left to the ETA
    std::chrono::milliseconds minPeriod{500};
    std::chrono::milliseconds maxPeriod{30'000};
};

// When to publish this peer's progress record and fetch the others' again. Far from the end of an epoch
// figures change slowly and the DHT should not be hammered; close to it every second counts, because peers
// that notice the full batch late start averaging late. So the period follows the ETA:
//
//     period = clamp(etaFraction × (eta − now), minPeriod, maxPeriod)
//
// with maxPeriod when there is no ETA (nobody makes progress) and minPeriod once the ETA has passed. A
// change of the local epoch makes a refresh due at once: the others must learn that this peer has moved on.
class ProgressRefreshPolicy {
public:
    using TimePoint = std::chrono::system_clock::time_point;

    // Throws std::invalid_argument unless etaFraction is finite and > 0 and 0 < minPeriod <= maxPeriod.
    explicit ProgressRefreshPolicy(ProgressRefreshOptions options = {});

    std::chrono::milliseconds periodFor(const GlobalProgress& progress, TimePoint now) const;

    // Records a refresh at `now` that produced `progress` while this peer was at `localEpoch`.
    void refreshed(const GlobalProgress& progress, std::uint64_t localEpoch, TimePoint now);
    // Brings the next refresh forward to now + minPeriod (if it was later): right after an epoch change
    // the others' new records may not be there yet, and a peer that waits a whole period to see them
    // starts looking for a group late.
    void refreshSoon(TimePoint now);
    // True before the first refresh, when the local epoch differs from the last refresh's, and from the
    // scheduled time on.
    bool isDue(std::uint64_t localEpoch, TimePoint now) const;
    // The scheduled time of the next refresh; none before the first.
    std::optional<TimePoint> nextRefreshAt() const { return nextRefreshAt_; }

private:
    ProgressRefreshOptions options_;
    std::optional<TimePoint> nextRefreshAt_;
    std::uint64_t refreshedEpoch_ = 0;
};

} // namespace sahaj::collab
