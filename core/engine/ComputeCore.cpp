#include "core/engine/ComputeCore.h"

#include "core/compute/CoreExitCode.h"
#include "core/compute/CoreProtocol.h"
#include "core/compute/TokenBatchMessage.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

extern char** environ;

namespace sahaj::engine {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::string describeStatus(int status) {
    if (WIFEXITED(status))
        return "exited: " + compute::describeCoreExit(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
               ::strsignal(WTERMSIG(status)) + ")";
    return "ended";
}

pid_t spawnCore(const CoreLaunch& launch, int channelFd) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // The core's only channel, at the descriptor it expects; dup2 clears close-on-exec on the copy.
    posix_spawn_file_actions_adddup2(&actions, channelFd, compute::CoreProtocol::kChannelFd);
    const std::string executable = launch.executable.string();
    const std::string fd = std::to_string(compute::CoreProtocol::kChannelFd);
    const std::string niceness = std::to_string(launch.niceness);
    std::vector<char*> argv{const_cast<char*>(executable.c_str()), const_cast<char*>("--channel-fd"),
                            const_cast<char*>(fd.c_str())};
    if (launch.niceness > 0) {
        argv.push_back(const_cast<char*>("--nice"));
        argv.push_back(const_cast<char*>(niceness.c_str()));
    }
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int error = ::posix_spawn(&pid, executable.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0)
        throw ComputeCoreFailure("cannot start the " + launch.variant + " core " + executable + ": " +
                                     std::strerror(error),
                                 std::nullopt);
    return pid;
}

} // namespace

ComputeCore::ComputeCore(const CoreLaunch& launch, const model::AlbertConfig& config,
                         const std::vector<model::ParameterLayoutEntry>& layout)
    : launch_(launch) {
    const auto count = static_cast<std::size_t>(model::AlbertParameterLayout::elements(layout));
    auto [mine, theirs] = compute::CoreChannel::socketPair();
    channel_.emplace(std::move(mine));
    parameters_ = compute::SharedFloats::create("sahaj-parameters", count);
    gradient_ = compute::SharedFloats::create("sahaj-gradient", count);
    pid_ = spawnCore(launch_, theirs.get());
    theirs.reset(); // the core's now: its end closes with it
    name_ = launch_.variant + " core (pid " + std::to_string(pid_) + ")";

    corechannel::CoreMessage hello;
    corechannel::Hello* body = hello.mutable_hello();
    body->set_protocol(compute::CoreProtocol::kVersion);
    body->set_model_config_json(config.toJson().dump());
    body->set_device(launch_.device);
    body->set_threads(static_cast<std::uint32_t>(std::max(launch_.threads, 0)));
    body->set_parameter_count(count);
    body->set_seed(launch_.seed);
    const int descriptors[] = {parameters_->fd(), gradient_->fd()};
    try {
        channel_->send(hello, descriptors);
    } catch (const std::exception& e) {
        fail(std::string("refused the engine's Hello: ") + e.what());
    }
    const corechannel::CoreMessage ready =
        await(corechannel::CoreMessage::kReady, launch_.readyTimeout, "Ready");
    const auto& shapes = ready.ready().parameters();
    if (static_cast<std::size_t>(shapes.size()) != layout.size())
        fail("has a model of " + std::to_string(shapes.size()) + " parameters, the engine's of " +
             std::to_string(layout.size()));
    for (std::size_t i = 0; i < layout.size(); ++i) {
        const corechannel::ParameterShape& shape = shapes[static_cast<int>(i)];
        if (shape.name() != layout[i].name || !std::equal(shape.shape().begin(), shape.shape().end(),
                                                          layout[i].shape.begin(), layout[i].shape.end()))
            fail("lists parameter " + std::to_string(i) + " as " + shape.name().substr(0, 200) +
                 ", the engine " + layout[i].name);
    }
    deviceName_ = ready.ready().device_name().substr(0, 200);
}

ComputeCore::~ComputeCore() {
    if (pid_ <= 0)
        return;
    channel_.reset(); // the core reads end-of-file and exits
    const auto deadline = Clock::now() + 5s;
    while (Clock::now() < deadline) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_)
            return;
        std::this_thread::sleep_for(10ms);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
}

std::string ComputeCore::endOfProcess() {
    if (pid_ <= 0)
        return "ended";
    int status = 0;
    pid_t reaped = 0;
    // A core that said why it fails exits at once; give it a moment before it is killed.
    for (int i = 0; i < 200 && (reaped = ::waitpid(pid_, &status, WNOHANG)) == 0; ++i)
        std::this_thread::sleep_for(10ms);
    if (reaped == 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
    if (WIFEXITED(status))
        exitCode_ = WEXITSTATUS(status);
    return describeStatus(status);
}

void ComputeCore::ended() {
    const std::string end = endOfProcess();
    throw ComputeCoreFailure("the " + name_ + " " + end, exitCode_);
}

void ComputeCore::fail(const std::string& problem) {
    if (pid_ > 0)
        ::kill(pid_, SIGKILL);
    const std::string end = endOfProcess();
    throw ComputeCoreFailure("the " + name_ + " " + problem + " (" + end + ")", exitCode_);
}

corechannel::CoreMessage ComputeCore::await(corechannel::CoreMessage::BodyCase expected,
                                            std::chrono::milliseconds timeout, const char* what) {
    const auto deadline = Clock::now() + timeout;
    auto lastHeard = Clock::now();
    for (;;) {
        const auto now = Clock::now();
        if (now >= deadline)
            fail(std::string("sent no ") + what + " within " +
                 std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) + " s");
        // Heartbeats count only once the core is up: building the model may take all of readyTimeout.
        if (expected != corechannel::CoreMessage::kReady && now - lastHeard > launch_.silenceTimeout)
            fail("sent no heartbeat for " +
                 std::to_string(
                     std::chrono::duration_cast<std::chrono::seconds>(launch_.silenceTimeout).count()) +
                 " s: it hangs");
        std::optional<compute::CoreChannel::Received> received;
        try {
            received = channel_->receive(
                std::min(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now),
                         std::chrono::milliseconds(compute::CoreProtocol::kHeartbeatInterval)));
        } catch (const compute::ChannelClosed&) {
            ended();
        } catch (const std::exception& e) {
            fail(std::string("broke the protocol: ") + e.what());
        }
        if (!received)
            continue;
        lastHeard = Clock::now();
        if (!received->descriptors.empty())
            fail("sent descriptors, which no message of a core carries");
        const corechannel::CoreMessage::BodyCase kind = received->message.body_case();
        if (kind == expected)
            return std::move(received->message);
        if (kind == corechannel::CoreMessage::kHeartbeat)
            continue;
        if (kind == corechannel::CoreMessage::kFailure) {
            const std::string message = received->message.failure().message().substr(0, 2000);
            const std::string end = endOfProcess();
            throw ComputeCoreFailure("the " + name_ + " failed: " + message + " (" + end + ")", exitCode_);
        }
        fail(std::string("sent message case ") + std::to_string(static_cast<int>(kind)) +
             " while the engine waited for " + what);
    }
}

void ComputeCore::request(const corechannel::CoreMessage& message, const char* what) {
    try {
        channel_->send(message);
    } catch (const compute::ChannelClosed&) {
        ended();
    } catch (const std::exception& e) {
        fail(std::string("did not take ") + what + ": " + e.what());
    }
}

void ComputeCore::loadParameters(std::span<const float> values, std::uint64_t generation) {
    if (values.size() != parameters_->size())
        throw std::invalid_argument("parameters of " + std::to_string(values.size()) +
                                    " values for a core of " + std::to_string(parameters_->size()));
    if (pending_)
        throw std::logic_error("parameters loaded while a batch is being computed");
    // The core reads this memory only between LoadParameters and its answer, which is awaited below.
    std::copy(values.begin(), values.end(), parameters_->values().begin());
    corechannel::CoreMessage load;
    load.mutable_load_parameters()->set_generation(generation);
    request(load, "LoadParameters");
    const corechannel::CoreMessage loaded =
        await(corechannel::CoreMessage::kParametersLoaded, launch_.computeTimeout, "ParametersLoaded");
    if (loaded.parameters_loaded().generation() != generation)
        fail("loaded generation " + std::to_string(loaded.parameters_loaded().generation()) + ", not " +
             std::to_string(generation));
    generation_ = generation;
}

ComputeCore::Result ComputeCore::compute(const compute::TokenBatch& batch, std::span<float> sum) {
    submit(batch);
    return collect(sum);
}

void ComputeCore::submit(const compute::TokenBatch& batch) {
    if (!generation_)
        throw std::logic_error("a batch submitted before loadParameters");
    if (pending_)
        throw std::logic_error("a batch submitted before the last one was collected");
    corechannel::CoreMessage message;
    message.mutable_compute()->set_generation(*generation_);
    compute::TokenBatchMessage::encode(batch, *message.mutable_compute()->mutable_batch());
    pending_ = Pending{batch.rows, batch.tokens(), Clock::now()};
    request(message, "Compute");
}

ComputeCore::Result ComputeCore::collect(std::span<float> sum) {
    if (!pending_)
        throw std::logic_error("collect without a batch submitted");
    if (sum.size() != gradient_->size())
        throw std::invalid_argument("a gradient sum of " + std::to_string(sum.size()) + " values");
    const Pending pending = *pending_;
    pending_.reset();
    const corechannel::CoreMessage reply =
        await(corechannel::CoreMessage::kComputed, launch_.computeTimeout, "Computed");
    const corechannel::Computed& computed = reply.computed();
    if (computed.generation() != *generation_ ||
        static_cast<std::int64_t>(computed.samples()) != pending.rows ||
        static_cast<std::int64_t>(computed.tokens()) != pending.tokens ||
        !std::isfinite(computed.seconds()) || computed.seconds() < 0.0)
        fail("answered Compute with generation " + std::to_string(computed.generation()) + ", " +
             std::to_string(computed.samples()) + " samples and " + std::to_string(computed.tokens()) +
             " tokens for a batch of " + std::to_string(pending.rows) + " and " +
             std::to_string(pending.tokens));
    const std::span<const float> gradient = gradient_->values();
    for (std::size_t i = 0; i < sum.size(); ++i)
        sum[i] += gradient[i];
    return {pending.rows, computed.loss(), pending.tokens, computed.seconds(),
            std::chrono::duration<double>(Clock::now() - pending.began).count()};
}

} // namespace sahaj::engine
