#pragma once

#include "core/net/RateMeter.h"

#include <chrono>
#include <cstdint>

namespace sahaj::net {

// The bandwidth this peer declares to its group (MemberInfo.bandwidth, which the load balancer splits
// the vector by): never an unchecked claim, always min(measured, cap) per direction, and the slower
// direction of the two, since a butterfly member moves as much each way. Before a direction has been
// measured it counts at the user's cap, or at a conservative default when there is no cap, so that a
// newcomer is not handed a large span on the strength of a number nobody checked.
class LinkBandwidth {
public:
    // 10 Mbit/s: a typical home uplink; a newcomer proves more by transferring.
    static constexpr double kDefaultBytesPerSecond = 1.25e6;

    explicit LinkBandwidth(double defaultBytesPerSecond = kDefaultBytesPerSecond);

    // The user's caps in bytes per second; 0 means no cap. Throws std::invalid_argument for negative or
    // non-finite values.
    void setCaps(double uploadBytesPerSecond, double downloadBytesPerSecond);

    // One all-reduce round: what it sent and received over the time it took.
    void addRound(std::uint64_t bytesSent, std::uint64_t bytesReceived, std::chrono::nanoseconds took);

    // Each direction's measurement (0 while too little has been measured).
    const RateMeter& upload() const { return upload_; }
    const RateMeter& download() const { return download_; }
    // For tests and callers that measure one direction on its own.
    RateMeter& upload() { return upload_; }
    RateMeter& download() { return download_; }

    double bytesPerSecond() const;
    // True while bytesPerSecond() may be the default figure: a direction with neither a measurement nor
    // a cap.
    bool guessed() const;
    // How fast each connection of a round may send (ConnectionPacer): its headroom over the highest
    // figure this link has shown, 0 (no pacing) while the figure is a guess. The highest, not the current
    // one: a round slowed by something else (a timeout, a busy CPU, a slow group) lowers the measurement,
    // and pacing from it would slow the next round further, and so on down; from the highest, the worst
    // a stale figure does is pace too little, which is what no pacing does anyway.
    double pacingBytesPerSecond() const;
    // In values per second for a wire encoding of `bytesPerValue` (2 for fp16): the load balancer's unit.
    double valuesPerSecond(double bytesPerValue) const { return bytesPerSecond() / bytesPerValue; }

private:
    double direction(const RateMeter& meter, double cap) const;

    double default_;
    double best_ = 0.0; // the highest bytesPerSecond() once it stopped being a guess
    double uploadCap_ = 0.0;
    double downloadCap_ = 0.0;
    RateMeter upload_;
    RateMeter download_;
};

} // namespace sahaj::net
