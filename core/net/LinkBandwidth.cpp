#include "core/net/LinkBandwidth.h"

#include "core/net/ConnectionPacer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sahaj::net {

LinkBandwidth::LinkBandwidth(double defaultBytesPerSecond) : default_(defaultBytesPerSecond) {
    if (!std::isfinite(defaultBytesPerSecond) || defaultBytesPerSecond <= 0.0)
        throw std::invalid_argument("the default bandwidth must be positive");
}

void LinkBandwidth::setCaps(double uploadBytesPerSecond, double downloadBytesPerSecond) {
    for (const double cap : {uploadBytesPerSecond, downloadBytesPerSecond})
        if (!std::isfinite(cap) || cap < 0.0)
            throw std::invalid_argument("a bandwidth cap must be a finite non-negative number (0: none)");
    uploadCap_ = uploadBytesPerSecond;
    downloadCap_ = downloadBytesPerSecond;
}

double LinkBandwidth::direction(const RateMeter& meter, double cap) const {
    const double measured = meter.bytesPerSecond();
    if (measured > 0.0)
        return cap > 0.0 ? std::min(measured, cap) : measured;
    return cap > 0.0 ? cap : default_;
}

void LinkBandwidth::addRound(std::uint64_t bytesSent, std::uint64_t bytesReceived,
                             std::chrono::nanoseconds took) {
    upload_.add(bytesSent, took);
    download_.add(bytesReceived, took);
    if (!guessed())
        best_ = std::max(best_, bytesPerSecond());
}

double LinkBandwidth::bytesPerSecond() const {
    return std::min(direction(upload_, uploadCap_), direction(download_, downloadCap_));
}

bool LinkBandwidth::guessed() const {
    return (upload_.bytesPerSecond() <= 0.0 && uploadCap_ <= 0.0) ||
           (download_.bytesPerSecond() <= 0.0 && downloadCap_ <= 0.0);
}

double LinkBandwidth::pacingBytesPerSecond() const {
    if (guessed())
        return 0.0;
    return ConnectionPacer::rateFor(std::max(best_, bytesPerSecond()));
}

} // namespace sahaj::net
