#include "core/net/TokenBucket.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sahaj::net {

namespace {

void checkRate(double value, const char* what) {
    if (!std::isfinite(value) || value < 0.0)
        throw std::invalid_argument(std::string(what) + " must be a finite non-negative number");
}

} // namespace

TokenBucket::TokenBucket(double bytesPerSecond, double burstBytes, Clock::time_point now)
    : rate_(bytesPerSecond), burst_(burstBytes), tokens_(burstBytes), last_(now) {
    checkRate(bytesPerSecond, "the rate");
    checkRate(burstBytes, "the burst");
}

void TokenBucket::refill(Clock::time_point now) {
    if (now > last_) {
        const double seconds = std::chrono::duration<double>(now - last_).count();
        tokens_ = std::min(burst_, tokens_ + seconds * rate_);
        last_ = now;
    }
}

std::chrono::nanoseconds TokenBucket::reserve(std::uint64_t bytes, Clock::time_point now) {
    if (rate_ == 0.0)
        return std::chrono::nanoseconds(0);
    refill(now);
    tokens_ -= static_cast<double>(bytes);
    if (tokens_ >= 0.0)
        return std::chrono::nanoseconds(0);
    return std::chrono::nanoseconds(static_cast<std::int64_t>(std::ceil(-tokens_ / rate_ * 1e9)));
}

void TokenBucket::setRate(double bytesPerSecond, Clock::time_point now) {
    checkRate(bytesPerSecond, "the rate");
    refill(now);
    rate_ = bytesPerSecond;
    if (rate_ == 0.0)
        tokens_ = burst_;
}

} // namespace sahaj::net
