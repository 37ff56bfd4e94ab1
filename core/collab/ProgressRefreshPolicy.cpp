#include "core/collab/ProgressRefreshPolicy.h"

#include "core/collab/GlobalProgress.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sahaj::collab {

ProgressRefreshPolicy::ProgressRefreshPolicy(ProgressRefreshOptions options) : options_(options) {
    if (!std::isfinite(options.etaFraction) || options.etaFraction <= 0.0)
        throw std::invalid_argument("progress refresh: the ETA fraction must be a finite number > 0");
    if (options.minPeriod.count() <= 0 || options.minPeriod > options.maxPeriod)
        throw std::invalid_argument("progress refresh: the periods must satisfy 0 < minimum <= maximum");
}

std::chrono::milliseconds ProgressRefreshPolicy::periodFor(const GlobalProgress& progress,
                                                           TimePoint now) const {
    if (!progress.eta)
        return options_.maxPeriod;
    // Clamped as milliseconds in floating point first, so that a far ETA cannot overflow the conversion.
    const double toEtaMs = std::chrono::duration<double, std::milli>(*progress.eta - now).count();
    const double periodMs =
        std::clamp(options_.etaFraction * toEtaMs, static_cast<double>(options_.minPeriod.count()),
                   static_cast<double>(options_.maxPeriod.count()));
    return std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(periodMs));
}

void ProgressRefreshPolicy::refreshed(const GlobalProgress& progress, std::uint64_t localEpoch,
                                      TimePoint now) {
    nextRefreshAt_ = now + periodFor(progress, now);
    refreshedEpoch_ = localEpoch;
}

void ProgressRefreshPolicy::refreshSoon(TimePoint now) {
    const TimePoint soon = now + options_.minPeriod;
    if (!nextRefreshAt_ || *nextRefreshAt_ > soon)
        nextRefreshAt_ = soon;
}

bool ProgressRefreshPolicy::isDue(std::uint64_t localEpoch, TimePoint now) const {
    return !nextRefreshAt_ || localEpoch != refreshedEpoch_ || now >= *nextRefreshAt_;
}

} // namespace sahaj::collab
