#include "core/compute/CoreSelection.h"

#include "core/compute/DottedVersion.h"

#include <algorithm>
#include <stdexcept>

namespace sahaj::compute {

namespace {

std::string mebibytes(std::uint64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

} // namespace

std::vector<CoreManifest> CoreSelection::ofDevice(const std::vector<CoreManifest>& cores,
                                                  const std::string& device) {
    std::vector<CoreManifest> chosen;
    std::copy_if(cores.begin(), cores.end(), std::back_inserter(chosen),
                 [&](const CoreManifest& core) { return core.device == device; });
    std::stable_sort(chosen.begin(), chosen.end(), [](const CoreManifest& a, const CoreManifest& b) {
        return a.preference > b.preference;
    });
    return chosen;
}

std::string CoreSelection::whyNot(const CoreManifest& core, const GpuDevice& gpu) {
    const std::string prefix = core.name + " on GPU " + std::to_string(gpu.index) + " (" + gpu.name + "): ";
    if (core.device != "cuda")
        return prefix + "not a GPU core";
    if (gpu.computeMajor < core.minComputeMajor ||
        (gpu.computeMajor == core.minComputeMajor && gpu.computeMinor < core.minComputeMinor))
        return prefix + "compute capability " + std::to_string(gpu.computeMajor) + "." +
               std::to_string(gpu.computeMinor) + " below " + std::to_string(core.minComputeMajor) + "." +
               std::to_string(core.minComputeMinor);
    if (!core.minDriver.empty()) {
        const auto have = DottedVersion::parse(gpu.driverVersion);
        const auto need = DottedVersion::parse(core.minDriver);
        if (!have)
            return prefix + "driver version \"" + gpu.driverVersion + "\" unknown, " + core.minDriver +
                   " needed";
        if (need && *have < *need)
            return prefix + "driver " + gpu.driverVersion + " older than " + core.minDriver;
    }
    if (gpu.memoryBytes < core.minMemoryBytes)
        return prefix + mebibytes(gpu.memoryBytes) + " of memory, " + mebibytes(core.minMemoryBytes) +
               " needed";
    return {};
}

std::vector<CoreAssignment> CoreSelection::choose(const std::vector<GpuDevice>& gpus,
                                                  const std::vector<CoreManifest>& cores) {
    std::vector<CoreAssignment> assignments;
    std::vector<std::string> passedOver;
    const std::vector<CoreManifest> gpuCores = ofDevice(cores, "cuda");
    for (const GpuDevice& gpu : gpus) {
        CoreAssignment assignment;
        assignment.gpuIndex = gpu.index;
        for (const CoreManifest& core : gpuCores) {
            const std::string reason = whyNot(core, gpu);
            if (reason.empty())
                assignment.candidates.push_back(core);
            else
                assignment.passedOver.push_back(reason);
        }
        if (gpuCores.empty())
            assignment.passedOver.push_back("GPU " + std::to_string(gpu.index) + " (" + gpu.name +
                                            "): no GPU core is installed");
        if (assignment.candidates.empty())
            passedOver.insert(passedOver.end(), assignment.passedOver.begin(), assignment.passedOver.end());
        else
            assignments.push_back(std::move(assignment));
    }
    if (!assignments.empty()) {
        // GPUs that no core fits are left idle; say why where the first choice is shown.
        auto& shown = assignments.front().passedOver;
        shown.insert(shown.end(), passedOver.begin(), passedOver.end());
        return assignments;
    }
    CoreAssignment cpu;
    cpu.candidates = ofDevice(cores, "cpu");
    cpu.passedOver = std::move(passedOver);
    if (cpu.candidates.empty()) {
        std::string reasons;
        for (const std::string& reason : cpu.passedOver)
            reasons += "; " + reason;
        throw std::runtime_error("no compute core can train on this machine: no cpu core is installed" +
                                 reasons);
    }
    return {cpu};
}

} // namespace sahaj::compute
