#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace sahaj::compute {

// What one installed compute core (a sahaj-core variant: the cpu core in the .deb, the CUDA core in its
// own package) needs of the machine, like a BOINC plan class. It lies beside the executable as
// core.json (docs/compute-cores.md):
//   {"name": "cuda", "device": "cuda", "executable": "sahaj-core", "min_compute_capability": "7.0",
//    "min_driver": "525.60", "min_memory_mb": 4096, "preference": 100}
// The cpu core also carries the model tools (`"tools": "sahaj-model"`: train-local, eval, fill-mask,
// finetune, model-info), the one other executable that links libtorch.
struct CoreManifest {
    std::string name;                 // unique among installed cores
    std::string device;               // "cpu" or "cuda"
    std::filesystem::path executable; // absolute: resolved against the manifest's folder
    int minComputeMajor = 0;
    int minComputeMinor = 0;
    std::string minDriver; // dotted version, "" for none
    std::uint64_t minMemoryBytes = 0;
    int preference = 0;          // higher is tried first among the cores that fit
    std::filesystem::path tools; // absolute, like `executable`; empty when the variant carries none

    // Parses and checks a manifest: every field of the right type and range, the device known, the
    // executable a plain name or relative path inside `folder`. Throws std::runtime_error naming `origin`
    // and the problem.
    static CoreManifest parse(std::string_view json, const std::filesystem::path& folder,
                              const std::string& origin);
    // Every core.json one folder below each of `roots` (roots/NAME/core.json); a manifest that does not
    // parse is skipped and its error added to `problems`.
    static std::vector<CoreManifest> discover(const std::vector<std::filesystem::path>& roots,
                                              std::vector<std::string>& problems);
};

} // namespace sahaj::compute
