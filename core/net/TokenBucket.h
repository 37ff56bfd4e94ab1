#pragma once

#include <chrono>
#include <cstdint>

namespace sahaj::net {

// Paces traffic to a user's cap: tokens (bytes) refill at `rate` per second up to `burst`; sending takes
// tokens, and a send larger than what is there runs the bucket into debt, which the next sends wait
// out. So the long-run rate never exceeds the cap, whatever the message sizes, and a message is never
// split or delayed more than its own size requires. A rate of 0 means no cap.
class TokenBucket {
public:
    using Clock = std::chrono::steady_clock;

    // Throws std::invalid_argument for a negative or non-finite rate or burst.
    TokenBucket(double bytesPerSecond, double burstBytes, Clock::time_point now = Clock::now());

    // Takes `bytes` and returns how long the caller must wait before sending them (0 when within the
    // budget).
    std::chrono::nanoseconds reserve(std::uint64_t bytes, Clock::time_point now = Clock::now());

    // Changes the cap from now on (the user moved a slider); tokens already earned are kept, up to the burst.
    void setRate(double bytesPerSecond, Clock::time_point now = Clock::now());
    double rate() const { return rate_; }

private:
    void refill(Clock::time_point now);

    double rate_;
    double burst_;
    double tokens_; // may be negative: debt from a large send
    Clock::time_point last_;
};

} // namespace sahaj::net
