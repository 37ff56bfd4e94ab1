#pragma once

#include "core/compute/CoreManifest.h"
#include "core/engine/CoreLaunch.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sahaj::engine {

// Where the installed compute cores are (docs/compute-cores.md): each folder of SAHAJ_CORES_DIR (a
// colon-separated list, for organisers and tests), then the package's lib/sahaj/cores beside the running
// executable's bin/, then a build tree's cores/ two folders above it (build/app/node/sahaj-node).
class CoreLocator {
public:
    static std::vector<std::filesystem::path> roots();
    // Every core installed under `roots` (each manifest that did not parse is added to `problems`).
    // Throws std::runtime_error naming the folders searched and those problems when there is no core
    // for `device` ("" for any, "cpu", "cuda", "cuda:N").
    static std::vector<compute::CoreManifest> installed(const std::vector<std::filesystem::path>& roots,
                                                        const std::string& device,
                                                        std::vector<std::string>& problems);
    // The cores that can train on `device` ("cpu", "cuda", "cuda:N"), best first, each as a launch on that
    // device. Throws std::runtime_error naming the folders searched and every manifest that did not parse
    // when none is installed.
    // The model tools (sahaj-model) of the most preferred installed core that carries them and has them
    // in place. Throws std::runtime_error naming the folders searched when none does.
    static std::filesystem::path
    modelTools(const std::vector<std::filesystem::path>& roots = CoreLocator::roots());
    static std::vector<CoreLaunch>
    launchesFor(const std::string& device, int threads,
                const std::vector<std::filesystem::path>& roots = CoreLocator::roots());
};

} // namespace sahaj::engine
