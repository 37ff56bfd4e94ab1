#pragma once

#include <chrono>

namespace sahaj::collab {

// This peer's training throughput: an exponential moving average of seconds per sample, bias-corrected
// as Adam corrects its moments (hivemind's PerformanceEMA). After n updates with measurements x_k,
//
//     ema_n = decay · ema_(n−1) + (1 − decay) · x_n,   ema_0 = 0,
//     seconds per sample = ema_n / (1 − decay^n),       samples per second = 1 / seconds per sample,
//
// so the first figures are plain averages instead of being dragged towards 0 by ema_0.
//
// Averaging seconds per sample (not samples per second) weighs a slow micro-batch as the time it really
// cost. Time spent averaging with the group is not training: between pause() and resume() the clock stops,
// and the interval that straddles a pause counts only its training time (hivemind restarts the interval at
// resume and so loses the training time before the pause).
//
// Not thread-safe: the training thread owns it.
class ThroughputEstimator {
public:
    using Clock = std::chrono::steady_clock;

    // Throws std::invalid_argument unless 0 <= decay < 1.
    explicit ThroughputEstimator(double decay = 0.9);

    // One measurement: `samples` (> 0) took `seconds` (> 0) of training. Throws std::invalid_argument for
    // values that are not finite and positive.
    void update(double samples, double seconds);

    // Timing by the clock. The estimator starts paused: resume() starts the clock. recordSamples() then
    // measures the training time since the previous recordSamples() (or since resume() for the first),
    // pauses excluded. Samples recorded when no training time has passed (paused since the last mark, or
    // never resumed) are carried into the next measurement rather than dividing by zero.
    void recordSamples(double samples, Clock::time_point now);
    void pause(Clock::time_point now);
    void resume(Clock::time_point now);
    bool isPaused() const { return paused_; }
    // Forgets the time since the last mark and any carried samples (after a progress reset, hivemind's
    // reset_timer); the clock keeps its paused or running state.
    void restartInterval(Clock::time_point now);

    int updates() const { return updates_; }
    // Bias-corrected seconds per sample; 0 before the first update.
    double secondsPerSample() const;
    // 1 / secondsPerSample(); 0 (unknown) before the first update.
    double samplesPerSecond() const;

private:
    double decay_;
    double ema_ = 0.0;
    double decayPower_ = 1.0; // decay^updates_
    int updates_ = 0;

    bool paused_ = true;
    Clock::time_point runningSince_{};
    Clock::duration trainingTime_{}; // since the last mark, up to runningSince_ while running
    double carriedSamples_ = 0.0;
};

} // namespace sahaj::collab
