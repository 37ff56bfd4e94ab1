#pragma once

#include "core/engine/ComputeCore.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::engine {

// Keeps one compute core working for the training thread (docs/compute-cores.md), as BOINC and
// Folding@home clients keep theirs: starts the best installed variant when first needed, restarts a core
// that crashed, hung or broke the protocol after a back-off of 2^n seconds (capped, and forgotten after
// healthy minutes), and after repeated failures marks the variant bad for this device and goes on with the
// next. Only the micro-batch in flight is lost when a core fails: the gradient sum stays with the engine.
class CoreSupervisor {
public:
    struct Policy {
        std::chrono::milliseconds firstBackOff{1000};
        std::chrono::milliseconds maxBackOff{64000};
        std::chrono::milliseconds healthyAfter{std::chrono::minutes(5)};
        int failuresPerVariant = 4; // in a row, before the next variant is tried
    };

    // candidates: best first (CoreLocator::launchesFor); must not be empty.
    CoreSupervisor(std::vector<CoreLaunch> candidates, model::AlbertConfig config, Policy policy);
    CoreSupervisor(std::vector<CoreLaunch> candidates, model::AlbertConfig config)
        : CoreSupervisor(std::move(candidates), std::move(config), Policy{}) {}
    ~CoreSupervisor();

    // False while a failed core waits for its restart.
    bool ready() const;
    // One micro-batch on the core with these parameters (loaded first when their generation is new),
    // adding its gradient into `sum`. nullopt when the core failed (the reason is in takeMessages()) or
    // waits for its restart: the micro-batch is lost, `sum` unchanged.
    std::optional<ComputeCore::Result> compute(const compute::TokenBatch& batch,
                                               std::span<const float> parameters, std::uint64_t generation,
                                               std::span<float> sum);
    // The same in two halves, for several cores at once (GradientAccumulator): submit() returns false when
    // the core is not ready or failed (nothing to collect then); collect() after a true submit().
    bool submit(const compute::TokenBatch& batch, std::span<const float> parameters,
                std::uint64_t generation);
    std::optional<ComputeCore::Result> collect(std::span<float> sum);
    // Lines for the log since the last call: starts, failures, restarts, variants passed over.
    std::vector<std::string> takeMessages();
    // "cpu core on cpu, 2 threads", or why none works now.
    std::string describe() const;
    // The running core's process (-1 when none): for the tests that kill it.
    pid_t corePid() const { return core_ ? core_->pid() : -1; }

private:
    void start();
    void failed(const std::string& reason);

    std::vector<CoreLaunch> candidates_;
    std::size_t current_ = 0;
    model::AlbertConfig config_;
    std::vector<model::ParameterLayoutEntry> layout_;
    Policy policy_;
    std::unique_ptr<ComputeCore> core_;
    int failuresInRow_ = 0;
    std::chrono::steady_clock::time_point restartAt_{};
    std::chrono::steady_clock::time_point healthySince_{};
    std::string lastProblem_;
    std::vector<std::string> messages_;
};

} // namespace sahaj::engine
