#pragma once

#include "core/compute/TokenBatch.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace sahaj::model {

// A compute::TokenBatch as the int64 tensors AlbertForPreTraining takes, on `device`.
struct BatchTensors {
    at::Tensor inputIds;      // [B, T]
    at::Tensor attentionMask; // [B, T]
    at::Tensor tokenTypeIds;  // [B, T]
    at::Tensor mlmLabels;     // [B, T]
    at::Tensor sopLabels;     // [B]

    static BatchTensors of(const compute::TokenBatch& batch, c10::Device device);
};

} // namespace sahaj::model
