#pragma once

#include <ATen/core/Tensor.h>

namespace sahaj::model {

// What AlbertForPreTraining::forward returns: logits for every position and the sentence-order logits.
struct PreTrainingOutput {
    at::Tensor mlmLogits; // [B,L,V]
    at::Tensor sopLogits; // [B,2]
};

// What AlbertForPreTraining::forwardMasked returns: MLM logits only where a label is set (labels != -100),
// in row-major position order, with those labels. Training needs nothing else, and it skips the
// [B*L, E] x [E, V] decoder product for the ~85 % of positions that carry no label.
struct MaskedPreTrainingOutput {
    at::Tensor mlmLogits; // [N,V], N = number of labelled positions in the batch
    at::Tensor mlmLabels; // [N] int64
    at::Tensor sopLogits; // [B,2]
};

} // namespace sahaj::model
