#include "core/engine/CoreSupervisor.h"

#include <algorithm>
#include <stdexcept>

namespace sahaj::engine {

namespace {

using Clock = std::chrono::steady_clock;

std::string seconds(std::chrono::milliseconds duration) {
    return std::to_string((duration.count() + 999) / 1000) + " s";
}

} // namespace

CoreSupervisor::CoreSupervisor(std::vector<CoreLaunch> candidates, model::AlbertConfig config, Policy policy)
    : candidates_(std::move(candidates)), config_(std::move(config)),
      layout_(model::AlbertParameterLayout::of(config_)), policy_(policy) {
    if (candidates_.empty())
        throw std::invalid_argument("no compute core to supervise");
}

CoreSupervisor::~CoreSupervisor() = default;

bool CoreSupervisor::ready() const {
    return core_ || Clock::now() >= restartAt_;
}

std::string CoreSupervisor::describe() const {
    const CoreLaunch& launch = candidates_[current_];
    if (core_)
        return launch.variant + " core on " + core_->deviceName();
    if (!lastProblem_.empty())
        return "no core running: " + lastProblem_;
    return launch.variant + " core, not started yet";
}

std::vector<std::string> CoreSupervisor::takeMessages() {
    std::vector<std::string> messages;
    messages.swap(messages_);
    return messages;
}

void CoreSupervisor::start() {
    const CoreLaunch& launch = candidates_[current_];
    core_ = std::make_unique<ComputeCore>(launch, config_, layout_);
    healthySince_ = Clock::now();
    messages_.push_back("compute core started: " + launch.variant + " on " + core_->deviceName() + " (pid " +
                        std::to_string(core_->pid()) + ")");
}

void CoreSupervisor::failed(const std::string& reason) {
    core_.reset();
    lastProblem_ = reason;
    ++failuresInRow_;
    if (failuresInRow_ >= policy_.failuresPerVariant && current_ + 1 < candidates_.size()) {
        messages_.push_back("the " + candidates_[current_].variant + " core is marked bad for " +
                            candidates_[current_].device + " after " + std::to_string(failuresInRow_) +
                            " failures in a row (" + reason + "); trying the " +
                            candidates_[current_ + 1].variant + " core");
        ++current_;
        failuresInRow_ = 0;
        restartAt_ = Clock::now();
        return;
    }
    const std::chrono::milliseconds backOff = std::min<std::chrono::milliseconds>(
        policy_.maxBackOff, policy_.firstBackOff * (std::int64_t{1} << std::min(failuresInRow_ - 1, 20)));
    restartAt_ = Clock::now() + backOff;
    messages_.push_back(reason +
                        "; the micro-batch in flight is lost, the batch so far kept; restarting in " +
                        seconds(backOff));
}

std::optional<ComputeCore::Result> CoreSupervisor::compute(const compute::TokenBatch& batch,
                                                           std::span<const float> parameters,
                                                           std::uint64_t generation, std::span<float> sum) {
    if (!submit(batch, parameters, generation))
        return std::nullopt;
    return collect(sum);
}

bool CoreSupervisor::submit(const compute::TokenBatch& batch, std::span<const float> parameters,
                            std::uint64_t generation) {
    if (!ready())
        return false;
    try {
        if (!core_)
            start();
        if (core_->generation() != generation)
            core_->loadParameters(parameters, generation);
        core_->submit(batch);
        return true;
    } catch (const ComputeCoreFailure& e) {
        failed(e.what());
        return false;
    }
}

std::optional<ComputeCore::Result> CoreSupervisor::collect(std::span<float> sum) {
    if (!core_)
        throw std::logic_error("collect without a core");
    try {
        ComputeCore::Result result = core_->collect(sum);
        if (failuresInRow_ > 0 && Clock::now() - healthySince_ >= policy_.healthyAfter)
            failuresInRow_ = 0; // healthy for minutes: the next failure starts the back-off anew
        return result;
    } catch (const ComputeCoreFailure& e) {
        failed(e.what());
        return std::nullopt;
    }
}

} // namespace sahaj::engine
