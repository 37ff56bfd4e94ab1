#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

namespace sahaj::engine {

// How to start one compute core (docs/compute-cores.md): which installed variant, on which device, and how
// long each of its answers may take.
struct CoreLaunch {
    std::filesystem::path executable;
    std::string variant = "cpu"; // the manifest's name, for messages
    std::string device = "cpu";  // "cpu", "cuda:0", ...
    int threads = 0;             // CPU threads for the core (0: libtorch's default)
    std::uint64_t seed = 0;      // the core's libtorch generator (dropout): the peer's data seed
    int niceness = 0;            // 1-19: the core lowers its own priority before it starts (--nice)
    // From the start to Ready: the core builds the model on its device (a GPU's context takes seconds).
    std::chrono::milliseconds readyTimeout{120000};
    // No heartbeat for this long while the core works: it hangs, and is killed.
    std::chrono::milliseconds silenceTimeout{30000};
    // One micro-batch, heartbeats or not: beyond this the core is replaced.
    std::chrono::milliseconds computeTimeout{std::chrono::minutes(30)};
};

} // namespace sahaj::engine
