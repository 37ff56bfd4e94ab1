#pragma once

#include "core/compute/GpuDevice.h"

#include <string>
#include <string_view>
#include <vector>

namespace sahaj::compute {

// Asks NVIDIA's management library (libnvidia-ml.so.1, loaded with dlopen: nothing links a GPU runtime)
// for the GPUs, their memory, compute capability and the driver's version. Vendor libraries can crash or
// hang, so this runs in a short-lived child process (`sahaj-node detect-gpus`), which prints report() on
// its standard output; the engine reads it with parseReport() under a deadline (engine::GpuDetection).
class NvmlProbe {
public:
    struct Result {
        std::vector<GpuDevice> gpus;
        std::string problem; // why there are none, when there are none ("libnvidia-ml.so.1 not found")
    };

    static Result probe();
    // One JSON object: {"gpus": [{"index", "name", "uuid", "memory_bytes", "compute_capability",
    // "driver"}], "problem": "..."}.
    static std::string report(const Result& result);
    // Throws std::runtime_error for anything that is not such a report (names and strings bounded).
    static Result parseReport(std::string_view text);
};

} // namespace sahaj::compute
