#include "core/device/CoreService.h"

#include "core/compute/CoreProtocol.h"
#include "core/compute/TokenBatchMessage.h"
#include "core/device/HeartbeatSender.h"
#include "core/model/AlbertParameterLayout.h"
#include "core/model/ComputeThreads.h"

#include <ATen/Context.h>
#include <c10/util/Exception.h>
#include <nlohmann/json.hpp>

#include <iostream>

namespace sahaj::device {

namespace {

using compute::CoreExitCode;

CoreServiceError usage(const std::string& message) {
    return CoreServiceError(CoreExitCode::Usage, message);
}

bool isOutOfMemory(const std::exception& e) {
    const std::string text = e.what();
    return text.find("out of memory") != std::string::npos ||
           text.find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos;
}

c10::Device parseDevice(const std::string& name) {
    if (name == "cpu")
        return c10::kCPU;
    if (name.rfind("cuda", 0) == 0 && name.size() <= 12) {
        try {
            return c10::Device(name);
        } catch (const c10::Error&) {
        }
    }
    throw usage("device '" + name.substr(0, 40) + "' (cpu, cuda or cuda:N)");
}

// The core's model must list exactly the parameters the engine keeps, in its order.
void checkLayout(const std::vector<GradientComputer::Parameter>& parameters,
                 const model::AlbertConfig& config) {
    const std::vector<model::ParameterLayoutEntry> expected = model::AlbertParameterLayout::of(config);
    if (parameters.size() != expected.size())
        throw CoreServiceError(CoreExitCode::Failed,
                               "this core's model has " + std::to_string(parameters.size()) +
                                   " parameters, the engine's layout " + std::to_string(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (parameters[i].name != expected[i].name || parameters[i].shape != expected[i].shape)
            throw CoreServiceError(CoreExitCode::Failed, "this core's parameter " + std::to_string(i) +
                                                             " is " + parameters[i].name + ", the engine's " +
                                                             expected[i].name);
}

} // namespace

CoreExitCode CoreService::run() {
    try {
        std::optional<compute::CoreChannel::Received> hello =
            channel_.receive(compute::CoreProtocol::kHelloTimeout);
        if (!hello)
            return fail(CoreExitCode::EngineLost, "no Hello from the engine within 30 s");
        start(std::move(*hello));
        for (;;) {
            // Idle: the engine may think for minutes (a round, a state download); a closed channel ends it.
            std::optional<compute::CoreChannel::Received> next = channel_.receive(std::chrono::hours(1));
            if (!next)
                continue;
            if (!next->descriptors.empty())
                throw usage("descriptors came with a message that takes none");
            serve(next->message);
        }
    } catch (const compute::ChannelClosed&) {
        return CoreExitCode::Finished;
    } catch (const CoreServiceError& e) {
        return fail(e.code(), e.what());
    } catch (const std::exception& e) {
        if (isOutOfMemory(e))
            return fail(CoreExitCode::OutOfMemory, e.what());
        return fail(CoreExitCode::Failed, e.what());
    }
}

void CoreService::start(compute::CoreChannel::Received received) {
    if (received.message.body_case() != corechannel::CoreMessage::kHello)
        throw usage("the engine's first message is not Hello");
    const corechannel::Hello& hello = received.message.hello();
    if (hello.protocol() != compute::CoreProtocol::kVersion)
        throw usage("the engine speaks protocol " + std::to_string(hello.protocol()) + ", this core " +
                    std::to_string(compute::CoreProtocol::kVersion));
    if (received.descriptors.size() != 2)
        throw usage("Hello came with " + std::to_string(received.descriptors.size()) +
                    " descriptors, 2 expected");
    try {
        config_ = model::AlbertConfig::fromJson(nlohmann::json::parse(hello.model_config_json()));
    } catch (const std::exception& e) {
        throw usage(std::string("the model config in Hello: ") + e.what());
    }
    const std::int64_t count = config_.parameterCount();
    if (hello.parameter_count() != static_cast<std::uint64_t>(count))
        throw usage("Hello says " + std::to_string(hello.parameter_count()) + " parameters, the config " +
                    std::to_string(count));
    if (hello.threads() > 1024)
        throw usage("Hello asks for " + std::to_string(hello.threads()) + " threads");
    const c10::Device device = parseDevice(hello.device());
    model::setComputeThreads(static_cast<int>(hello.threads()));
    parameters_ =
        compute::SharedFloats::adopt(std::move(received.descriptors[0]), static_cast<std::size_t>(count));
    gradient_ =
        compute::SharedFloats::adopt(std::move(received.descriptors[1]), static_cast<std::size_t>(count));
    at::manual_seed(hello.seed()); // the peer's own seed: its dropout draws can be reproduced
    try {
        computer_ = std::make_unique<GradientComputer>(config_, device);
    } catch (const c10::Error& e) {
        if (isOutOfMemory(e))
            throw CoreServiceError(CoreExitCode::OutOfMemory, e.what_without_backtrace());
        throw CoreServiceError(CoreExitCode::BadDevice, e.what_without_backtrace());
    } catch (const std::runtime_error& e) {
        throw CoreServiceError(CoreExitCode::BadDevice, e.what());
    }
    const std::vector<GradientComputer::Parameter> parameters = computer_->parameters();
    checkLayout(parameters, config_);

    corechannel::CoreMessage ready;
    ready.mutable_ready()->set_device_name(computer_->deviceName());
    for (const GradientComputer::Parameter& parameter : parameters) {
        corechannel::ParameterShape* shape = ready.mutable_ready()->add_parameters();
        shape->set_name(parameter.name);
        for (const std::int64_t size : parameter.shape)
            shape->add_shape(size);
    }
    ready.mutable_ready()->set_core_version(std::to_string(compute::CoreProtocol::kVersion));
    channel_.send(ready);
}

void CoreService::serve(const corechannel::CoreMessage& message) {
    switch (message.body_case()) {
    case corechannel::CoreMessage::kLoadParameters: {
        const HeartbeatSender heartbeat(channel_);
        computer_->loadParameters(parameters_->values());
        generation_ = message.load_parameters().generation();
        corechannel::CoreMessage loaded;
        loaded.mutable_parameters_loaded()->set_generation(*generation_);
        channel_.send(loaded);
        return;
    }
    case corechannel::CoreMessage::kCompute: {
        const corechannel::Compute& compute = message.compute();
        if (!generation_ || compute.generation() != *generation_)
            throw usage("Compute with parameters of generation " + std::to_string(compute.generation()) +
                        ", the core holds " +
                        (generation_ ? std::to_string(*generation_) : std::string("none")));
        compute::TokenBatchMessage::Limits limits;
        limits.vocabulary = config_.vocabSize;
        limits.typeVocabulary = config_.typeVocabSize;
        limits.maxWidth = config_.maxPositionEmbeddings;
        compute::TokenBatch batch;
        try {
            batch = compute::TokenBatchMessage::decode(compute.batch(), limits);
        } catch (const std::invalid_argument& e) {
            throw usage(e.what());
        }
        GradientComputer::Result result;
        {
            const HeartbeatSender heartbeat(channel_);
            result = computer_->compute(batch, gradient_->values());
        }
        corechannel::CoreMessage computed;
        corechannel::Computed* body = computed.mutable_computed();
        body->set_generation(*generation_);
        body->set_samples(static_cast<std::uint32_t>(result.samples));
        body->set_loss(result.loss);
        body->set_tokens(static_cast<std::uint64_t>(result.tokens));
        body->set_seconds(result.seconds);
        channel_.send(computed);
        return;
    }
    default:
        throw usage("a message the engine does not send to a core (case " +
                    std::to_string(static_cast<int>(message.body_case())) + ")");
    }
}

CoreExitCode CoreService::fail(CoreExitCode code, const std::string& text) {
    std::cerr << "sahaj-core: " << text << "\n";
    corechannel::CoreMessage failure;
    failure.mutable_failure()->set_exit_code(static_cast<std::uint32_t>(code));
    failure.mutable_failure()->set_message(text.substr(0, 4000));
    try {
        channel_.send(failure, {}, std::chrono::seconds(5));
    } catch (const std::exception&) {
        // the engine is gone: the exit code says it
    }
    return code;
}

} // namespace sahaj::device
