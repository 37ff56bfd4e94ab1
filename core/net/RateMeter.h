#pragma once

#include <chrono>
#include <cstdint>

namespace sahaj::net {

// The rate a link achieved in real transfers, for the load balancer: bytes moved divided by the time
// spent moving them, both decayed with a half-life so that the figure follows a link whose speed
// changes, while idle time (no transfer) does not drag it down. Until enough has been measured the
// meter reports nothing, and the caller falls back to the user's cap or a default.
class RateMeter {
public:
    // halfLifeBytes: after this many more bytes, older observations count half.
    explicit RateMeter(double halfLifeBytes = 64.0 * 1024 * 1024, double minimumBytes = 1024.0 * 1024);

    // One transfer of `bytes` that took `duration` (from its first byte queued to its last one acknowledged
    // or received). Transfers of 0 bytes or non-positive durations are ignored.
    void add(std::uint64_t bytes, std::chrono::nanoseconds duration);

    // Bytes per second; 0 while fewer than minimumBytes have been measured.
    double bytesPerSecond() const;
    // Every byte measured so far (not decayed).
    double measuredBytes() const { return total_; }

private:
    double halfLifeBytes_;
    double minimumBytes_;
    double bytes_ = 0.0; // decayed totals
    double seconds_ = 0.0;
    double total_ = 0.0;
};

} // namespace sahaj::net
