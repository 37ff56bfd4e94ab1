#pragma once

#include "core/compute/CoreManifest.h"
#include "core/compute/GpuDevice.h"

#include <optional>
#include <string>
#include <vector>

namespace sahaj::compute {

// Which installed core trains on which device (docs/compute-cores.md): for every enabled GPU the
// preferred core whose requirements it meets, the others kept as fallbacks in order; the cpu core when no
// GPU got one. Every core passed over says why ("cuda: compute capability 6.1 below 7.0"), for the
// wizard, the settings and the log.
struct CoreAssignment {
    std::optional<int> gpuIndex;          // nullopt: the CPU
    std::vector<CoreManifest> candidates; // best first; the engine self-tests them in turn
    std::vector<std::string> passedOver;
};

class CoreSelection {
public:
    // Throws std::runtime_error when nothing can train at all (no core fits any GPU and no cpu core is
    // installed), with every reason.
    static std::vector<CoreAssignment> choose(const std::vector<GpuDevice>& gpus,
                                              const std::vector<CoreManifest>& cores);
    // The cores for `device` ("cpu" or "cuda"), in order of preference (stable among equals: the order
    // they were found in).
    static std::vector<CoreManifest> ofDevice(const std::vector<CoreManifest>& cores,
                                              const std::string& device);
    // Empty when `core` can run on `gpu`, else why not.
    static std::string whyNot(const CoreManifest& core, const GpuDevice& gpu);
};

} // namespace sahaj::compute
