#pragma once

#include <cstdint>
#include <string>

namespace sahaj::compute {

// One GPU as the driver describes it (NVML), what a compute core's manifest is matched against.
struct GpuDevice {
    int index = 0;
    std::string name;
    std::string uuid;
    std::uint64_t memoryBytes = 0;
    int computeMajor = 0; // CUDA compute capability
    int computeMinor = 0;
    std::string driverVersion; // "535.104.05"
};

} // namespace sahaj::compute
