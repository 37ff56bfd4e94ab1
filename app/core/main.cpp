// sahaj-core: computes gradients for the engine on one device (docs/compute-cores.md).
//
//   sahaj-core --channel-fd 3 [--nice N]
//       serve the engine on the socket it handed over (how the engine starts it), at niceness N (1-19)
//       when given: set before any thread starts, so that every thread of the core has it
//   sahaj-core --self-test [--device D] [--config NAME|PATH] [--micro-batch N] [--seconds S]
//       a short forward/backward; prints the device and samples/s as JSON
//   sahaj-core --detect-gpus
//       asks the NVIDIA driver for the GPUs (compute::NvmlProbe) and prints its JSON report; the engine
//       runs it as a child under a deadline (engine::GpuDetection), since a vendor library may crash or
//       hang
//
// Exit codes: compute::CoreExitCode.

#include "core/compute/CoreChannel.h"
#include "core/compute/CoreExitCode.h"
#include "core/compute/CoreProtocol.h"
#include "core/compute/NvmlProbe.h"
#include "core/device/CoreSelfTest.h"
#include "core/device/CoreService.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace {

using sahaj::compute::CoreExitCode;

// A whole number from `min` to `max` written in full, or nullopt.
std::optional<long> wholeNumber(const std::string& text, long min, long max) {
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || value < min || value > max)
        return std::nullopt;
    return value;
}

// Sets every thread of this process to `niceness`. On Linux a niceness belongs to a thread, and a new
// thread takes its creator's: the threads started from here on take it from this one, but libraries start
// some while they load, before main (seen: one thread of the CPU core left at 0), so each thread there is
// now is lowered by its id. Only ever lowered: an unprivileged process may, and the engine asks no more.
void lowerPriority(int niceness) {
    std::error_code error;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
        const id_t thread = static_cast<id_t>(std::strtoul(task.path().filename().c_str(), nullptr, 10));
        if (thread != 0 && ::setpriority(PRIO_PROCESS, thread, niceness) != 0)
            std::cerr << "sahaj-core: cannot lower the priority of thread " << thread << ": "
                      << std::strerror(errno) << "\n";
    }
    if (error)
        std::cerr << "sahaj-core: cannot list its threads: " << error.message() << "\n";
}

int exitWith(CoreExitCode code) {
    return static_cast<int>(code);
}

int usage(const std::string& problem) {
    std::cerr
        << "sahaj-core: " << problem << "\n"
        << "usage: sahaj-core --channel-fd N [--nice 1-19]\n"
        << "       sahaj-core --self-test [--device cpu|cuda[:N]] [--config NAME|PATH] [--micro-batch N]\n"
        << "       sahaj-core --detect-gpus\n";
    return exitWith(CoreExitCode::Usage);
}

int serve(int fd) {
    // The lifeline: the kernel ends this process when its engine dies, even in the middle of a micro-batch;
    // a parent that died before the call is caught by the check after it.
    const pid_t parent = ::getppid();
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
        return exitWith(CoreExitCode::EngineLost);
    try {
        sahaj::compute::CoreChannel channel{sahaj::compute::UniqueFd(fd)};
        sahaj::device::CoreService service(channel);
        return exitWith(service.run());
    } catch (const std::exception& e) {
        std::cerr << "sahaj-core: " << e.what() << "\n";
        return exitWith(CoreExitCode::Failed);
    }
}

int selfTest(const std::vector<std::string>& arguments) {
    sahaj::device::CoreSelfTestOptions options;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& name = arguments[i];
        if (i + 1 >= arguments.size())
            return usage(name + " needs a value");
        const std::string& value = arguments[++i];
        try {
            if (name == "--device")
                options.device = value;
            else if (name == "--config")
                options.config =
                    value.find('/') == std::string::npos && value.find(".json") == std::string::npos
                        ? sahaj::model::AlbertConfig::named(value)
                        : sahaj::model::AlbertConfig::loadFile(value);
            else if (name == "--micro-batch")
                options.microBatch = std::stoi(value);
            else if (name == "--seconds")
                options.seconds = std::stod(value);
            else
                return usage("unknown option " + name);
        } catch (const std::exception& e) {
            return usage(name + ": " + e.what());
        }
    }
    if (options.microBatch < 1 || options.microBatch > 4096)
        return usage("--micro-batch must be 1 to 4096");
    if (!(options.seconds > 0.0 && options.seconds <= 3600.0))
        return usage("--seconds must be above 0 and at most 3600");
    try {
        std::cout << sahaj::device::CoreSelfTest::run(options) << std::endl;
        return exitWith(CoreExitCode::Finished);
    } catch (const std::exception& e) {
        std::cout << R"({"ok": false})" << std::endl;
        std::cerr << "sahaj-core: self-test failed: " << e.what() << "\n";
        return exitWith(CoreExitCode::BadDevice);
    }
}

} // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    if ((arguments.size() == 2 || (arguments.size() == 4 && arguments[2] == "--nice")) &&
        arguments[0] == "--channel-fd") {
        const std::optional<long> fd = wholeNumber(arguments[1], 0, 1024);
        if (!fd)
            return usage("--channel-fd takes a descriptor number");
        if (arguments.size() == 4) {
            const std::optional<long> niceness = wholeNumber(arguments[3], 1, 19);
            if (!niceness)
                return usage("--nice takes 1 to 19");
            lowerPriority(static_cast<int>(*niceness));
        }
        return serve(static_cast<int>(*fd));
    }
    if (arguments.size() == 1 && arguments[0] == "--detect-gpus") {
        std::cout << sahaj::compute::NvmlProbe::report(sahaj::compute::NvmlProbe::probe()) << std::endl;
        return exitWith(CoreExitCode::Finished);
    }
    if (!arguments.empty() && arguments[0] == "--self-test")
        return selfTest(std::vector<std::string>(arguments.begin() + 1, arguments.end()));
    return usage(arguments.empty() ? "no mode given" : "unknown arguments");
}
