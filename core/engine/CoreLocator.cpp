#include "core/engine/CoreLocator.h"

#include "core/compute/CoreManifest.h"
#include "core/compute/CoreSelection.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace sahaj::engine {

namespace fs = std::filesystem;

std::vector<fs::path> CoreLocator::roots() {
    std::vector<fs::path> roots;
    if (const char* listed = std::getenv("SAHAJ_CORES_DIR")) {
        std::string text = listed;
        std::size_t begin = 0;
        while (begin <= text.size()) {
            const std::size_t end = std::min(text.find(':', begin), text.size());
            if (end > begin)
                roots.emplace_back(text.substr(begin, end - begin));
            begin = end + 1;
        }
    }
    std::error_code error;
    const fs::path executable = fs::read_symlink("/proc/self/exe", error);
    if (!error) {
        const fs::path folder = executable.parent_path();
        roots.push_back(folder.parent_path() / "lib" / "sahaj" / "cores");
        roots.push_back(folder.parent_path().parent_path() / "cores");
    }
    return roots;
}

namespace {

std::string searchedText(const std::vector<fs::path>& roots) {
    std::string searched;
    for (const fs::path& root : roots)
        searched += (searched.empty() ? "" : ", ") + root.string();
    return searched.empty() ? std::string("nothing") : searched;
}

} // namespace

std::vector<compute::CoreManifest> CoreLocator::installed(const std::vector<fs::path>& roots,
                                                          const std::string& device,
                                                          std::vector<std::string>& problems) {
    std::vector<compute::CoreManifest> cores = compute::CoreManifest::discover(roots, problems);
    const std::string kind = device.rfind("cuda", 0) == 0 ? "cuda" : device;
    if (kind.empty() ? !cores.empty() : !compute::CoreSelection::ofDevice(cores, kind).empty())
        return cores;
    std::string message = "no compute core" + (device.empty() ? std::string() : " for " + device) +
                          " is installed (searched " + searchedText(roots) +
                          "; SAHAJ_CORES_DIR adds folders)";
    for (const std::string& problem : problems)
        message += "; " + problem;
    throw std::runtime_error(message);
}

fs::path CoreLocator::modelTools(const std::vector<fs::path>& roots) {
    std::vector<std::string> problems;
    std::vector<compute::CoreManifest> cores = compute::CoreManifest::discover(roots, problems);
    std::stable_sort(cores.begin(), cores.end(),
                     [](const auto& a, const auto& b) { return a.preference > b.preference; });
    for (const compute::CoreManifest& core : cores) {
        std::error_code error;
        if (!core.tools.empty() && fs::is_regular_file(core.tools, error))
            return core.tools;
    }
    std::string message =
        "the model tools (sahaj-model, part of the cpu compute core) are not installed (searched " +
        searchedText(roots) + "; SAHAJ_CORES_DIR adds folders)";
    for (const std::string& problem : problems)
        message += "; " + problem;
    throw std::runtime_error(message);
}

std::vector<CoreLaunch> CoreLocator::launchesFor(const std::string& device, int threads,
                                                 const std::vector<fs::path>& roots) {
    const std::string kind = device.rfind("cuda", 0) == 0 ? "cuda" : device;
    std::vector<std::string> problems;
    const std::vector<compute::CoreManifest> cores =
        compute::CoreSelection::ofDevice(installed(roots, device, problems), kind);
    std::vector<CoreLaunch> launches;
    for (const compute::CoreManifest& core : cores) {
        CoreLaunch launch;
        launch.executable = core.executable;
        launch.variant = core.name;
        launch.device = kind == "cuda" && device == "cuda" ? "cuda:0" : device;
        launch.threads = threads;
        launches.push_back(launch);
    }
    return launches;
}

} // namespace sahaj::engine
