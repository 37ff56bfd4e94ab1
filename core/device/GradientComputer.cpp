#include "core/device/GradientComputer.h"

#include "core/model/AutocastGuard.h"
#include "core/model/BatchTensors.h"
#include "core/model/PreTrainingLoss.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

namespace sahaj::device {

namespace {

c10::Device usableDevice(const c10::Device& device) {
    if (device.is_cuda() && !torch::cuda::is_available())
        throw std::runtime_error("device " + device.str() + ": this libtorch has no usable CUDA device");
    return device;
}

} // namespace

GradientComputer::GradientComputer(const model::AlbertConfig& config, const c10::Device& device)
    : model_(config), device_(usableDevice(device)) {
    model_->to(device_);
    model_->train();
    parameterCount_ = model_->parameterCount();
}

std::vector<GradientComputer::Parameter> GradientComputer::parameters() const {
    std::vector<Parameter> parameters;
    for (const auto& item : model_->named_parameters())
        parameters.push_back({item.key(), item.value().sizes().vec()});
    return parameters;
}

std::string GradientComputer::deviceName() const {
    if (device_.is_cpu())
        return "cpu, " + std::to_string(at::get_num_threads()) +
               (at::get_num_threads() == 1 ? " thread" : " threads");
    return device_.str();
}

void GradientComputer::loadParameters(std::span<const float> values) {
    if (static_cast<std::int64_t>(values.size()) != parameterCount_)
        throw std::invalid_argument("parameters of " + std::to_string(values.size()) +
                                    " values for a model of " + std::to_string(parameterCount_));
    torch::NoGradGuard noGrad;
    std::size_t offset = 0;
    for (const auto& item : model_->named_parameters()) {
        at::Tensor parameter = item.value();
        const auto count = static_cast<std::size_t>(parameter.numel());
        // from_blob does not own the memory: copy_ reads it before the span can change.
        parameter.copy_(
            torch::from_blob(const_cast<float*>(values.data() + offset), parameter.sizes(), torch::kFloat32));
        offset += count;
    }
}

GradientComputer::Result GradientComputer::compute(const compute::TokenBatch& batch,
                                                   std::span<float> gradient) {
    if (static_cast<std::int64_t>(gradient.size()) != parameterCount_)
        throw std::invalid_argument("a gradient buffer of " + std::to_string(gradient.size()) + " values");
    const auto began = std::chrono::steady_clock::now();
    for (const auto& item : model_->named_parameters())
        if (item.value().grad().defined())
            item.value().mutable_grad().reset();
    const model::BatchTensors tensors = model::BatchTensors::of(batch, device_);
    model::PreTrainingLossValues values;
    {
        const model::AutocastGuard autocast(device_, model::AutocastPrecision::BFloat16);
        const auto output = model_->forwardMasked(tensors.inputIds, tensors.attentionMask,
                                                  tensors.tokenTypeIds, tensors.mlmLabels);
        values = model::PreTrainingLoss::compute(output, tensors.sopLabels);
    }
    at::Tensor loss = values.sopLoss;
    if (values.mlmCount > 0)
        loss = loss + values.mlmLoss;
    (loss * static_cast<double>(batch.rows)).backward();

    torch::NoGradGuard noGrad;
    std::size_t offset = 0;
    for (const auto& item : model_->named_parameters()) {
        const at::Tensor& parameter = item.value();
        const auto count = static_cast<std::size_t>(parameter.numel());
        if (parameter.grad().defined()) {
            const at::Tensor grad = parameter.grad().to(torch::kCPU, torch::kFloat32).contiguous();
            std::memcpy(gradient.data() + offset, grad.data_ptr<float>(), count * sizeof(float));
        } else {
            std::fill(gradient.begin() + static_cast<std::ptrdiff_t>(offset),
                      gradient.begin() + static_cast<std::ptrdiff_t>(offset + count), 0.0f);
        }
        offset += count;
    }
    Result result;
    result.samples = batch.rows;
    result.loss = loss.item<double>();
    result.tokens = batch.tokens();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return result;
}

} // namespace sahaj::device
