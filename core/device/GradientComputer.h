#pragma once

#include "core/compute/TokenBatch.h"
#include "core/model/AlbertConfig.h"
#include "core/model/AlbertForPreTraining.h"

#include <c10/core/Device.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sahaj::device {

// The model on one device and the gradient of one micro-batch at a time: what a compute core does and all
// it does (docs/compute-cores.md). The parameters come from the engine; the gradient goes back to it, the
// engine sums micro-batches and steps. Stateless between micro-batches, so a core that dies loses only the
// one in flight.
class GradientComputer {
public:
    struct Parameter {
        std::string name;
        std::vector<std::int64_t> shape;
    };
    struct Result {
        std::int64_t samples = 0;
        double loss = 0.0; // the micro-batch's mean loss, MLM + SOP
        std::int64_t tokens = 0;
        double seconds = 0.0;
    };

    // Throws std::invalid_argument for a bad config, std::runtime_error for a device that cannot be used.
    GradientComputer(const model::AlbertConfig& config, const c10::Device& device);

    // The model's parameters in named_parameters() order.
    std::vector<Parameter> parameters() const;
    std::int64_t parameterCount() const { return parameterCount_; }
    const c10::Device& device() const { return device_; }
    // "cpu (8 threads)", "NVIDIA H200 (cuda:0)".
    std::string deviceName() const;

    // parameterCount() values in named_parameters() order.
    void loadParameters(std::span<const float> values);
    // Forward and backward of one micro-batch; writes the gradient of samples x its mean loss (so that the
    // engine's sum over micro-batches divided by their samples is the per-sample mean) into `gradient`
    // (parameterCount() values; zeros where a parameter got none).
    Result compute(const compute::TokenBatch& batch, std::span<float> gradient);

private:
    model::AlbertForPreTraining model_;
    c10::Device device_;
    std::int64_t parameterCount_ = 0;
};

} // namespace sahaj::device
