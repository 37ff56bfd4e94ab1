#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace sahaj::net {

// How far the coordinator's clock is from this computer's: the run's time (docs/security.md, "Clocks").
//
// DHT records carry their owner's issue and expiry times, and group declarations an absolute expiration:
// a volunteer whose clock is 30 s ahead (no NTP, a flat CMOS battery) sees every record of the run expire
// 30 s early, so it never sees a leader's declaration, which lives only its gather time; one 30 s behind
// publishes declarations that have expired for everyone else. So a volunteer stamps and judges records on
// the coordinator's time instead. Every exchange with the coordinator's token endpoint for a token (the
// first, the renewal at each start, later renewals) brings the coordinator's send time in its envelope;
// sent at s and answered at r by this clock, the coordinator's clock minus this one lies within half the
// round trip of remote − (s + r) / 2. The coordinator is the organiser's: it signs every token, and is
// trusted for the time as it is for admission; no volunteer's word moves this figure.
//
// Written by whoever talks to the endpoint (the joining thread, the collaboration thread's renewals) and
// read by the DHT node's threads: atomic.
class CoordinatorClock {
public:
    using Clock = std::chrono::system_clock;

    // Notes an exchange sent at `sent` and answered at `received` (this computer's clock), the answer
    // stamped `remoteMs` (ms since the epoch) by the coordinator. An exchange whose round trip exceeds
    // kMaxRoundTrip says too little and is ignored, as is one whose round trip is negative (this clock was
    // set back meanwhile). The newest good exchange wins: a clock that NTP corrects mid-run is followed.
    void noteExchange(std::uint64_t remoteMs, Clock::time_point sent, Clock::time_point received);

    // What to add to this computer's clock to read the coordinator's: zero until an exchange was noted.
    std::chrono::milliseconds offset() const {
        return std::chrono::milliseconds(offsetMs_.load(std::memory_order_relaxed));
    }
    bool measured() const { return measured_.load(std::memory_order_relaxed); }

    // This computer's time plus offset(): the run's time.
    Clock::time_point now() const { return Clock::now() + offset(); }

    static constexpr std::chrono::milliseconds kMaxRoundTrip{5000};

private:
    std::atomic<std::int64_t> offsetMs_{0};
    std::atomic<bool> measured_{false};
};

} // namespace sahaj::net
