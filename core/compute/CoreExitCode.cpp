#include "core/compute/CoreExitCode.h"

namespace sahaj::compute {

std::string describeCoreExit(int exitCode) {
    switch (static_cast<CoreExitCode>(exitCode)) {
    case CoreExitCode::Finished:
        return "finished";
    case CoreExitCode::Failed:
        return "failed";
    case CoreExitCode::Usage:
        return "refused its command line or the engine's messages";
    case CoreExitCode::OutOfMemory:
        return "out of memory";
    case CoreExitCode::BadDevice:
        return "cannot use its device or driver";
    case CoreExitCode::EngineLost:
        return "lost its engine";
    }
    return "exit code " + std::to_string(exitCode);
}

} // namespace sahaj::compute
