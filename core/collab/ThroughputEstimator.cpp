#include "core/collab/ThroughputEstimator.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sahaj::collab {

namespace {

void requirePositive(double value, const char* what) {
    if (!std::isfinite(value) || value <= 0.0)
        throw std::invalid_argument(std::string("throughput: ") + what +
                                    " must be a finite number > 0, got " + std::to_string(value));
}

} // namespace

ThroughputEstimator::ThroughputEstimator(double decay) : decay_(decay) {
    if (!(decay >= 0.0 && decay < 1.0))
        throw std::invalid_argument("throughput: the decay must be in [0, 1), got " + std::to_string(decay));
}

void ThroughputEstimator::update(double samples, double seconds) {
    requirePositive(samples, "a sample count");
    requirePositive(seconds, "a duration");
    ema_ = decay_ * ema_ + (1.0 - decay_) * (seconds / samples);
    decayPower_ *= decay_;
    ++updates_;
}

double ThroughputEstimator::secondsPerSample() const {
    return updates_ == 0 ? 0.0 : ema_ / (1.0 - decayPower_);
}

double ThroughputEstimator::samplesPerSecond() const {
    // Finite or 0: a rate that overflows (a degenerate measurement) is no figure to publish.
    const double rate = 1.0 / secondsPerSample();
    return std::isfinite(rate) ? rate : 0.0;
}

void ThroughputEstimator::pause(Clock::time_point now) {
    if (paused_)
        return;
    if (now > runningSince_)
        trainingTime_ += now - runningSince_;
    paused_ = true;
}

void ThroughputEstimator::resume(Clock::time_point now) {
    if (!paused_)
        return;
    runningSince_ = now;
    paused_ = false;
}

void ThroughputEstimator::restartInterval(Clock::time_point now) {
    trainingTime_ = Clock::duration::zero();
    carriedSamples_ = 0.0;
    runningSince_ = now;
}

void ThroughputEstimator::recordSamples(double samples, Clock::time_point now) {
    requirePositive(samples, "a sample count");
    Clock::duration elapsed = trainingTime_;
    if (!paused_ && now > runningSince_)
        elapsed += now - runningSince_;
    carriedSamples_ += samples;
    if (elapsed <= Clock::duration::zero())
        return;
    update(carriedSamples_, std::chrono::duration<double>(elapsed).count());
    restartInterval(now);
}

} // namespace sahaj::collab
