#include "core/engine/CorePlanner.h"

#include "core/compute/CoreSelection.h"
#include "core/engine/CoreLocator.h"
#include "core/engine/CoreSelfTestProcess.h"
#include "core/engine/GpuDetection.h"

#include <QString>

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>

namespace sahaj::engine {

namespace {

using compute::CoreAssignment;
using compute::CoreManifest;
using compute::GpuDevice;

CoreLaunch launchOf(const CoreManifest& core, const std::string& device, int threads) {
    CoreLaunch launch;
    launch.executable = core.executable;
    launch.variant = core.name;
    launch.device = device;
    launch.threads = threads;
    return launch;
}

// The GPU a "cuda" or "cuda:N" setting names; nullopt for anything else.
std::optional<int> namedGpu(const std::string& device) {
    if (device == "cuda")
        return 0;
    if (device.rfind("cuda:", 0) != 0 || device.size() < 6 || device.size() > 7)
        return std::nullopt;
    int index = -1;
    const char* first = device.data() + 5;
    const char* last = device.data() + device.size();
    const auto [end, error] = std::from_chars(first, last, index);
    if (error != std::errc() || end != last || index < 0)
        return std::nullopt;
    return index;
}

std::string gpuName(const std::vector<GpuDevice>& gpus, int index) {
    for (const GpuDevice& gpu : gpus)
        if (gpu.index == index)
            return gpu.name;
    return {};
}

// A GPU core's self-test builds a context and the tiny model on its device: seconds, a minute at most.
constexpr int kSelfTestTimeoutMs = 120000;

} // namespace

CorePlan CorePlanner::plan(const std::string& device, int threads, const compute::NvmlProbe::Result& detected,
                           const std::vector<CoreManifest>& installed, const SelfTest& selfTest) {
    const bool wantsGpu = device != "cpu";
    const std::optional<int> named = namedGpu(device);
    if (wantsGpu && device != "auto" && !named)
        throw std::runtime_error("unknown device \"" + device + "\": auto, cpu, cuda or cuda:N");

    CorePlan plan;
    std::vector<GpuDevice> gpus;
    if (wantsGpu) {
        for (const GpuDevice& gpu : detected.gpus)
            if (!named || gpu.index == *named)
                gpus.push_back(gpu);
        if (gpus.empty())
            plan.passedOver.push_back(
                (named ? "GPU " + std::to_string(*named) + ": the driver reports no such GPU"
                       : std::string("no GPU")) +
                (detected.problem.empty() ? std::string() : " (" + detected.problem + ")"));
    }
    // The cpu cores, best first: the answer when no GPU passes, the last fallback when one does.
    std::vector<CoreLaunch> cpu;
    for (const CoreManifest& core : compute::CoreSelection::ofDevice(installed, "cpu"))
        cpu.push_back(launchOf(core, "cpu", threads));

    std::vector<CoreAssignment> assignments;
    if (!gpus.empty() || cpu.empty()) // choose() says why nothing can train when no cpu core is there
        assignments = compute::CoreSelection::choose(gpus, installed);
    for (CoreAssignment& assignment : assignments) {
        plan.passedOver.insert(plan.passedOver.end(), assignment.passedOver.begin(),
                               assignment.passedOver.end());
        if (!assignment.gpuIndex)
            continue;
        const std::string on = "cuda:" + std::to_string(*assignment.gpuIndex);
        std::vector<CoreLaunch> launches;
        for (const CoreManifest& core : assignment.candidates) {
            CoreLaunch launch = launchOf(core, on, threads);
            // The first that passes trains; those after it stay untested fallbacks.
            if (launches.empty()) {
                if (const std::string why = selfTest(launch); !why.empty()) {
                    plan.passedOver.push_back(core.name + " core on " + on + ": " + why);
                    continue;
                }
            }
            launches.push_back(std::move(launch));
        }
        if (launches.empty())
            continue;
        const std::string name = gpuName(gpus, *assignment.gpuIndex);
        plan.training.push_back(launches.front().variant + " core on " + on +
                                (name.empty() ? std::string() : " (" + name + ")"));
        plan.devices.push_back(std::move(launches));
    }
    if (plan.devices.empty() && cpu.empty()) {
        // GPU cores fitted but none passed its self-test, and there is no cpu core to fall back on.
        std::string reasons;
        for (const std::string& reason : plan.passedOver)
            reasons += "; " + reason;
        throw std::runtime_error("no compute core can train on this machine: no cpu core is installed" +
                                 reasons);
    }
    if (plan.devices.empty()) {
        plan.training.push_back(cpu.front().variant + " core on cpu");
        plan.devices.push_back(std::move(cpu));
    } else {
        // A GPU core that keeps failing at run time is replaced at last by the cpu core (CoreSupervisor).
        plan.devices.front().insert(plan.devices.front().end(), cpu.begin(), cpu.end());
    }
    return plan;
}

CorePlan CorePlanner::forThisMachine(const std::string& device, int threads,
                                     const std::vector<std::filesystem::path>& roots) {
    std::vector<std::string> problems;
    const std::vector<CoreManifest> installed = CoreLocator::installed(roots, "", problems);
    compute::NvmlProbe::Result detected;
    if (device != "cpu") {
        // Every core can run the GPU check; the cpu core is always there and loads no GPU runtime.
        const std::vector<CoreManifest> cpuCores = compute::CoreSelection::ofDevice(installed, "cpu");
        const CoreManifest& core = cpuCores.empty() ? installed.front() : cpuCores.front();
        detected = GpuDetection::run(QString::fromStdString(core.executable.string()),
                                     {QStringLiteral("--detect-gpus")});
    }
    CorePlan chosen = plan(device, threads, detected, installed, [](const CoreLaunch& launch) {
        return CoreSelfTestProcess::run(launch, "tiny", 2, kSelfTestTimeoutMs).problem.toStdString();
    });
    chosen.passedOver.insert(chosen.passedOver.end(), problems.begin(), problems.end());
    return chosen;
}

CorePlan CorePlanner::forThisMachine(const std::string& device, int threads) {
    return forThisMachine(device, threads, CoreLocator::roots());
}

} // namespace sahaj::engine
