#include "core/net/RateMeter.h"

#include <cmath>
#include <stdexcept>

namespace sahaj::net {

RateMeter::RateMeter(double halfLifeBytes, double minimumBytes)
    : halfLifeBytes_(halfLifeBytes), minimumBytes_(minimumBytes) {
    if (!(halfLifeBytes > 0.0) || !(minimumBytes >= 0.0))
        throw std::invalid_argument("a rate meter needs a positive half-life and a non-negative minimum");
}

void RateMeter::add(std::uint64_t bytes, std::chrono::nanoseconds duration) {
    if (bytes == 0 || duration.count() <= 0)
        return;
    const double moved = static_cast<double>(bytes);
    total_ += moved;
    // Decay by how much newer traffic arrived, not by wall time: a peer idle for an hour keeps its figure.
    const double keep = std::exp2(-moved / halfLifeBytes_);
    bytes_ = bytes_ * keep + moved;
    seconds_ = seconds_ * keep + std::chrono::duration<double>(duration).count();
}

double RateMeter::bytesPerSecond() const {
    if (total_ < minimumBytes_ || seconds_ <= 0.0)
        return 0.0;
    return bytes_ / seconds_;
}

} // namespace sahaj::net
