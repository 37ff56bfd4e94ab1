#pragma once

#include <string>
#include <vector>

namespace sahaj::model {

// How fast this machine trains a model: forward and backward passes of micro-batches of random 128-token
// sequences, with the trainer's precision (bf16 autocast on CUDA, fp32 on the CPU), timed after a warm-up.
// libtorch only, so a GPU machine with nothing but its own libtorch can run it (the wizard's hardware check
// wraps it, engine::HardwareProbe).
struct TrainingSpeed {
    std::vector<std::string> devices; // "cpu", "cuda:0", ...
    double samplesPerSecond = 0.0;
    int batches = 0;      // timed micro-batches
    double seconds = 0.0; // they took
    std::string problem;  // why nothing was measured, empty when it worked
};

class TrainingSpeedProbe {
public:
    static constexpr long kSequence = 128;

    // Never throws: a missing device, an unknown model or running out of memory is the result's problem.
    // Times up to maxBatches micro-batches, stopping after budgetSeconds (at least one).
    static TrainingSpeed measure(const std::string& device, int microBatch, const std::string& model,
                                 int maxBatches = 5, double budgetSeconds = 20.0);
    static std::vector<std::string> devices();
};

} // namespace sahaj::model
