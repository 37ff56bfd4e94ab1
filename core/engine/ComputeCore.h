#pragma once

#include "core/compute/CoreChannel.h"
#include "core/compute/SharedFloats.h"
#include "core/compute/TokenBatch.h"
#include "core/engine/CoreLaunch.h"
#include "core/model/AlbertConfig.h"
#include "core/model/AlbertParameterLayout.h"

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace sahaj::engine {

// A compute core that failed: it exited, crashed, hung, or broke the protocol. The process is gone when
// this is thrown. exitCode: the core's (compute::CoreExitCode) when it exited on its own.
class ComputeCoreFailure : public std::runtime_error {
public:
    ComputeCoreFailure(const std::string& message, std::optional<int> exitCode)
        : std::runtime_error(message), exitCode_(exitCode) {}
    std::optional<int> exitCode() const { return exitCode_; }

private:
    std::optional<int> exitCode_;
};

// The engine's handle on one sahaj-core process (docs/compute-cores.md): starts it with one end of a
// socket pair and two shared-memory vectors (the parameters in, the gradient out), checks its model's
// layout, and computes micro-batches through it. Every answer has a deadline; a working core must send
// heartbeats; whatever it says is checked. Owned by the training thread.
class ComputeCore {
public:
    struct Result {
        std::int64_t samples = 0;
        double loss = 0.0; // the micro-batch's mean loss
        std::int64_t tokens = 0;
        double seconds = 0.0;     // forward and backward, as the core measured them
        double wallSeconds = 0.0; // from the request to the answer, as the engine measured them
    };

    // Starts the core and waits for Ready. Throws ComputeCoreFailure (nothing is left running then).
    ComputeCore(const CoreLaunch& launch, const model::AlbertConfig& config,
                const std::vector<model::ParameterLayoutEntry>& layout);
    // Closes the channel (the core exits on its own), waits a few seconds, then kills it.
    ~ComputeCore();
    ComputeCore(const ComputeCore&) = delete;
    ComputeCore& operator=(const ComputeCore&) = delete;

    pid_t pid() const { return pid_; }
    const std::string& deviceName() const { return deviceName_; }
    // The generation of the parameters the core holds, if any.
    std::optional<std::uint64_t> generation() const { return generation_; }

    // Hands the core new parameter values and waits until it took them. Throws ComputeCoreFailure.
    void loadParameters(std::span<const float> values, std::uint64_t generation);
    // One micro-batch with the parameters loaded last; adds its gradient (samples x its mean loss) into
    // `sum`. Throws ComputeCoreFailure; `sum` is unchanged then.
    Result compute(const compute::TokenBatch& batch, std::span<float> sum);
    // The same in two halves, so that several cores (one per GPU) work at once: submit() hands the batch
    // over, collect() waits for the answer and adds the gradient. One batch at a time.
    void submit(const compute::TokenBatch& batch);
    Result collect(std::span<float> sum);

private:
    corechannel::CoreMessage await(corechannel::CoreMessage::BodyCase expected,
                                   std::chrono::milliseconds deadline, const char* what);
    // Sends a request; a core that is gone or does not read fails.
    void request(const corechannel::CoreMessage& message, const char* what);
    [[noreturn]] void fail(const std::string& problem);
    // The channel closed: the process ended on its own; reaps it and says how.
    [[noreturn]] void ended();
    std::string endOfProcess(); // reaps the process, says how it ended

    CoreLaunch launch_;
    std::string name_; // "cpu core (pid 123)"
    std::optional<compute::CoreChannel> channel_;
    std::optional<compute::SharedFloats> parameters_;
    std::optional<compute::SharedFloats> gradient_;
    pid_t pid_ = -1;
    std::optional<int> exitCode_;
    std::string deviceName_;
    std::optional<std::uint64_t> generation_;
    struct Pending {
        std::int64_t rows = 0;
        std::int64_t tokens = 0;
        std::chrono::steady_clock::time_point began;
    };
    std::optional<Pending> pending_; // the batch submitted and not collected yet
};

} // namespace sahaj::engine
