#include "core/model/BatchTensors.h"

#include <torch/torch.h>

#include <stdexcept>

namespace sahaj::model {

namespace {

at::Tensor tensorOf(const std::vector<std::int64_t>& values, at::IntArrayRef shape, c10::Device device) {
    return torch::from_blob(const_cast<std::int64_t*>(values.data()), shape, torch::kInt64).clone().to(device);
}

} // namespace

BatchTensors BatchTensors::of(const compute::TokenBatch& batch, c10::Device device) {
    const auto cells = static_cast<std::size_t>(batch.rows * batch.width);
    if (batch.inputIds.size() != cells || batch.attentionMask.size() != cells ||
        batch.tokenTypeIds.size() != cells || batch.mlmLabels.size() != cells ||
        batch.sopLabels.size() != static_cast<std::size_t>(batch.rows))
        throw std::invalid_argument("a token batch whose arrays do not match its " + std::to_string(batch.rows) +
                                    " x " + std::to_string(batch.width) + " shape");
    const std::vector<std::int64_t> shape{batch.rows, batch.width};
    return {tensorOf(batch.inputIds, shape, device), tensorOf(batch.attentionMask, shape, device),
            tensorOf(batch.tokenTypeIds, shape, device), tensorOf(batch.mlmLabels, shape, device),
            tensorOf(batch.sopLabels, {batch.rows}, device)};
}

} // namespace sahaj::model
