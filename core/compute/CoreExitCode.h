#pragma once

#include <string>

namespace sahaj::compute {

// How a compute core ends (its process exit code), so that the engine knows what to do next
// (docs/compute-cores.md): start it again, try the next variant, or stop.
enum class CoreExitCode : int {
    Finished = 0,    // the engine closed the channel: nothing went wrong
    Failed = 1,      // an error it could not name better: restart with back-off
    Usage = 2,       // bad command line or a protocol violation by the engine
    OutOfMemory = 3, // the device ran out of memory even at the smallest micro-batch
    BadDevice = 4,   // the device or its driver cannot be used: try the next variant
    EngineLost = 5,  // the engine stopped answering
};

// "out of memory", "bad device or driver", ..., or "exit code N" for others.
std::string describeCoreExit(int exitCode);

} // namespace sahaj::compute
