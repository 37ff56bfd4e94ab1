#pragma once

#include <ATen/core/Tensor.h>

namespace sahaj::text {

// A padded batch for AlbertForPreTraining. All tensors are int64 (torch::Tensor is at::Tensor).
struct PretrainingBatch {
    at::Tensor inputIds;      // [B, T]
    at::Tensor attentionMask; // [B, T], 1 for tokens, 0 for padding
    at::Tensor tokenTypeIds;  // [B, T], 0 for [CLS] A [SEP], 1 for B [SEP], 0 for padding
    at::Tensor mlmLabels;     // [B, T], original id at selected positions, -100 elsewhere
    at::Tensor sopLabels;     // [B], 0 = in order, 1 = swapped
};

} // namespace sahaj::text
