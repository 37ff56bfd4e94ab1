#pragma once

#include "core/engine/CoreLaunch.h"

#include <string>
#include <vector>

namespace sahaj::engine {

// What computes on this machine (engine::CorePlanner, docs/compute-cores.md): one entry per device that
// trains, each the launches of one CoreSupervisor, best first (the self-tested GPU cores, then the cpu
// core as the last fallback of the first GPU), and what the volunteer is told.
struct CorePlan {
    std::vector<std::vector<CoreLaunch>> devices;
    // "cuda core on cuda:0 (NVIDIA H200)", "cpu core on cpu": one per device, for the app and the log.
    std::vector<std::string> training;
    // Every core and GPU passed over, and why ("cuda on GPU 1 (…): compute capability 6.1 below 7.0",
    // "no GPU: libnvidia-ml.so.1 not found", "cuda core on cuda:0: self-test failed: …").
    std::vector<std::string> passedOver;

    // "cuda core on cuda:0 (NVIDIA H200); cuda core on cuda:1 (NVIDIA H200)".
    std::string summary() const;
    // A GPU core trains (the first device's first launch is not the CPU).
    bool usesGpu() const;
};

} // namespace sahaj::engine
