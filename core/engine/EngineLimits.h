#pragma once

#include <QString>

namespace sahaj::engine {

// The limits a volunteer sets on what the engine may use. They apply while it runs: the compute share at
// once, the micro-batch from the next micro-batch on, the caps in the transport and in the bandwidth the
// load balancer plans with.
struct EngineLimits {
    static constexpr int kMaxMicroBatch = 4096;
    static constexpr double kMaxMbps = 1e6;

    double computePercent = 100.0; // share of the time spent computing (the GPU/CPU usage limit), 1..100
    int microBatch = 8;            // samples per forward/backward: bounds memory use, 1..kMaxMicroBatch
    double maxUploadMbps = 0.0;    // 0: no cap
    double maxDownloadMbps = 0.0;

    // Empty when the limits are usable, else one sentence saying which one is not and why.
    QString problem() const;

    bool operator==(const EngineLimits&) const = default;
};

} // namespace sahaj::engine
