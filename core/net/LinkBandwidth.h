#pragma once

#include "core/net/RateMeter.h"

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

    // Where transfers report what they achieved.
    RateMeter& upload() { return upload_; }
    RateMeter& download() { return download_; }

    double bytesPerSecond() const;
    // In values per second for a wire encoding of `bytesPerValue` (2 for fp16): the load balancer's unit.
    double valuesPerSecond(double bytesPerValue) const { return bytesPerSecond() / bytesPerValue; }

private:
    double direction(const RateMeter& meter, double cap) const;

    double default_;
    double uploadCap_ = 0.0;
    double downloadCap_ = 0.0;
    RateMeter upload_;
    RateMeter download_;
};

} // namespace sahaj::net
