#include "core/net/CoordinatorClock.h"

#include <algorithm>

namespace sahaj::net {

void CoordinatorClock::noteExchange(std::uint64_t remoteMs, Clock::time_point sent,
                                    Clock::time_point received) {
    using std::chrono::milliseconds;
    const auto roundTrip = received - sent;
    if (roundTrip < Clock::duration::zero() || roundTrip > kMaxRoundTrip)
        return;
    const std::int64_t middle =
        std::chrono::duration_cast<milliseconds>((sent + roundTrip / 2).time_since_epoch()).count();
    // The envelope's timestamp passed MessageCodec's replay window (minutes from this clock): far from the
    // ends of the range, and clamped all the same before the subtraction.
    const std::int64_t remote = static_cast<std::int64_t>(std::min<std::uint64_t>(remoteMs, 1ull << 62));
    offsetMs_.store(remote - middle, std::memory_order_relaxed);
    measured_.store(true, std::memory_order_relaxed);
}

} // namespace sahaj::net
