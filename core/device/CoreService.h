#pragma once

#include "core/compute/CoreChannel.h"
#include "core/compute/CoreExitCode.h"
#include "core/compute/SharedFloats.h"
#include "core/device/GradientComputer.h"

#include <memory>
#include <optional>
#include <string>

namespace sahaj::device {

// A compute core's side of the channel (docs/compute-cores.md): waits for Hello, builds the model and
// checks that its parameters are the layout the engine expects, says Ready, then answers LoadParameters
// and Compute until the engine closes the channel. Every message is checked on arrival; anything the
// protocol does not allow ends the core with a Failure saying what.
class CoreService {
public:
    explicit CoreService(compute::CoreChannel& channel) : channel_(channel) {}

    // Serves until the channel closes (Finished) or something fails; returns the exit code.
    compute::CoreExitCode run();

private:
    void start(compute::CoreChannel::Received hello);
    void serve(const corechannel::CoreMessage& message);
    compute::CoreExitCode fail(compute::CoreExitCode code, const std::string& message);

    compute::CoreChannel& channel_;
    std::optional<compute::SharedFloats> parameters_;
    std::optional<compute::SharedFloats> gradient_;
    std::unique_ptr<GradientComputer> computer_;
    model::AlbertConfig config_;
    std::optional<std::uint64_t> generation_; // of the parameters loaded
};

// A violation of the protocol by the engine (Usage), or a device problem (BadDevice).
class CoreServiceError : public std::runtime_error {
public:
    CoreServiceError(compute::CoreExitCode code, const std::string& message)
        : std::runtime_error(message), code_(code) {}
    compute::CoreExitCode code() const { return code_; }

private:
    compute::CoreExitCode code_;
};

} // namespace sahaj::device
