#pragma once

#include "core/compute/CoreManifest.h"
#include "core/compute/NvmlProbe.h"
#include "core/engine/CorePlan.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sahaj::engine {

// Decides which installed cores compute on which devices (docs/compute-cores.md), as a BOINC client picks
// an app version by plan class: the device setting ("auto", "cpu", "cuda", "cuda:N"), the GPUs the
// driver reports and the installed cores' manifests give the candidates (compute::CoreSelection), and each
// GPU candidate must pass its self-test on its device before it is trusted; what fails falls back to the
// next candidate and in the end to the cpu core. One entry per GPU that passes: the engine sums their
// gradients, so a machine with several GPUs is one peer.
class CorePlanner {
public:
    // A core's short forward and backward on its device: empty when it passed, else why not.
    using SelfTest = std::function<std::string(const CoreLaunch&)>;

    // Throws std::runtime_error when nothing can compute (no cpu core, no GPU core that passed), with
    // every reason, and for a device setting it does not know.
    static CorePlan plan(const std::string& device, int threads, const compute::NvmlProbe::Result& detected,
                         const std::vector<compute::CoreManifest>& installed, const SelfTest& selfTest);

    // This machine's: the cores installed under `roots`, the GPU check run by the cpu core as a child
    // under a deadline (`sahaj-core --detect-gpus`, engine::GpuDetection) when the setting is "auto", and
    // each GPU core's self-test (CoreSelfTestProcess, the tiny model: it proves the core runs on the
    // device; the run's model sizes its micro-batch there).
    static CorePlan forThisMachine(const std::string& device, int threads,
                                   const std::vector<std::filesystem::path>& roots);
    static CorePlan forThisMachine(const std::string& device, int threads);
};

} // namespace sahaj::engine
