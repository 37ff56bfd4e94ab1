#include "core/compute/NvmlProbe.h"

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <stdexcept>

namespace sahaj::compute {

namespace {

// The few NVML entry points used, with the C signatures of nvml.h (NVML_SUCCESS is 0).
using NvmlDevice = void*;
struct NvmlMemory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
using InitFn = int (*)();
using ShutdownFn = int (*)();
using CountFn = int (*)(unsigned int*);
using HandleFn = int (*)(unsigned int, NvmlDevice*);
using TextFn = int (*)(NvmlDevice, char*, unsigned int);
using MemoryFn = int (*)(NvmlDevice, NvmlMemory*);
using CapabilityFn = int (*)(NvmlDevice, int*, int*);
using DriverFn = int (*)(char*, unsigned int);

template <typename Fn>
Fn symbol(void* library, const char* name) {
    return reinterpret_cast<Fn>(dlsym(library, name));
}

constexpr std::size_t kMaxText = 256;

std::string boundedString(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string() || it->get<std::string>().size() > kMaxText)
        throw std::runtime_error(std::string("GPU report: \"") + key +
                                 "\" must be a string of at most 256 bytes");
    return it->get<std::string>();
}

} // namespace

NvmlProbe::Result NvmlProbe::probe() {
    Result result;
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        result.problem = "no NVIDIA driver: libnvidia-ml.so.1 not found";
        return result;
    }
    const auto init = symbol<InitFn>(library, "nvmlInit_v2");
    const auto shutdown = symbol<ShutdownFn>(library, "nvmlShutdown");
    const auto count = symbol<CountFn>(library, "nvmlDeviceGetCount_v2");
    const auto handle = symbol<HandleFn>(library, "nvmlDeviceGetHandleByIndex_v2");
    const auto name = symbol<TextFn>(library, "nvmlDeviceGetName");
    const auto uuid = symbol<TextFn>(library, "nvmlDeviceGetUUID");
    const auto memory = symbol<MemoryFn>(library, "nvmlDeviceGetMemoryInfo");
    const auto capability = symbol<CapabilityFn>(library, "nvmlDeviceGetCudaComputeCapability");
    const auto driver = symbol<DriverFn>(library, "nvmlSystemGetDriverVersion");
    if (!init || !shutdown || !count || !handle || !name || !uuid || !memory || !capability || !driver) {
        result.problem = "libnvidia-ml.so.1 lacks functions this version of Sahaj needs (driver too old)";
        dlclose(library);
        return result;
    }
    if (init() != 0) {
        result.problem = "the NVIDIA driver did not initialise (nvmlInit failed)";
        dlclose(library);
        return result;
    }
    char text[kMaxText] = {};
    std::string driverVersion = driver(text, sizeof text) == 0 ? std::string(text) : std::string();
    unsigned int devices = 0;
    if (count(&devices) != 0)
        result.problem = "the NVIDIA driver did not count its GPUs";
    for (unsigned int i = 0; i < devices && i < 64; ++i) {
        NvmlDevice device = nullptr;
        if (handle(i, &device) != 0)
            continue;
        GpuDevice gpu;
        gpu.index = static_cast<int>(i);
        gpu.driverVersion = driverVersion;
        if (name(device, text, sizeof text) == 0)
            gpu.name = text;
        if (uuid(device, text, sizeof text) == 0)
            gpu.uuid = text;
        NvmlMemory info{};
        if (memory(device, &info) == 0)
            gpu.memoryBytes = info.total;
        capability(device, &gpu.computeMajor, &gpu.computeMinor);
        result.gpus.push_back(std::move(gpu));
    }
    if (result.gpus.empty() && result.problem.empty())
        result.problem = "the NVIDIA driver reports no GPU";
    shutdown();
    dlclose(library);
    return result;
}

std::string NvmlProbe::report(const Result& result) {
    nlohmann::json gpus = nlohmann::json::array();
    for (const GpuDevice& gpu : result.gpus)
        gpus.push_back({{"index", gpu.index},
                        {"name", gpu.name},
                        {"uuid", gpu.uuid},
                        {"memory_bytes", gpu.memoryBytes},
                        {"compute_capability",
                         std::to_string(gpu.computeMajor) + "." + std::to_string(gpu.computeMinor)},
                        {"driver", gpu.driverVersion}});
    return nlohmann::json{{"gpus", gpus}, {"problem", result.problem}}.dump();
}

NvmlProbe::Result NvmlProbe::parseReport(std::string_view text) {
    if (text.size() > 256 * 1024)
        throw std::runtime_error("GPU report: longer than 256 KiB");
    nlohmann::json object;
    try {
        object = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        throw std::runtime_error("GPU report: not valid JSON");
    }
    if (!object.is_object() || !object.contains("gpus") || !object["gpus"].is_array() ||
        object["gpus"].size() > 64)
        throw std::runtime_error("GPU report: no list of at most 64 GPUs");
    Result result;
    result.problem = boundedString(object, "problem");
    for (const nlohmann::json& entry : object["gpus"]) {
        if (!entry.is_object() || !entry.contains("index") || !entry["index"].is_number_unsigned() ||
            entry["index"].get<std::uint64_t>() >= 64 || !entry.contains("memory_bytes") ||
            !entry["memory_bytes"].is_number_unsigned())
            throw std::runtime_error("GPU report: a GPU without a valid index and memory size");
        GpuDevice gpu;
        gpu.index = entry["index"].get<int>();
        gpu.name = boundedString(entry, "name");
        gpu.uuid = boundedString(entry, "uuid");
        gpu.driverVersion = boundedString(entry, "driver");
        gpu.memoryBytes = entry["memory_bytes"].get<std::uint64_t>();
        const std::string capability = boundedString(entry, "compute_capability");
        const auto dot = capability.find('.');
        try {
            if (dot == std::string::npos)
                throw std::invalid_argument("no dot");
            gpu.computeMajor = std::stoi(capability.substr(0, dot));
            gpu.computeMinor = std::stoi(capability.substr(dot + 1));
        } catch (const std::exception&) {
            throw std::runtime_error("GPU report: compute capability \"" + capability +
                                     "\" is not MAJOR.MINOR");
        }
        result.gpus.push_back(std::move(gpu));
    }
    return result;
}

} // namespace sahaj::compute
