#pragma once

#include "core/model/PreTrainingOutput.h"

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace sahaj::model {

// The losses and accuracy counts of one batch.
struct PreTrainingLossValues {
    at::Tensor total;   // mlmLoss + sopLoss, scalar, differentiable
    at::Tensor mlmLoss; // mean cross entropy over labelled positions (0 when there are none)
    at::Tensor sopLoss; // mean cross entropy over the batch
    std::int64_t mlmCorrect = 0;
    std::int64_t mlmCount = 0; // labelled positions
    std::int64_t sopCorrect = 0;
    std::int64_t sopCount = 0; // sequences

    double mlmAccuracy() const { return mlmCount ? static_cast<double>(mlmCorrect) / mlmCount : 0.0; }
    double sopAccuracy() const { return sopCount ? static_cast<double>(sopCorrect) / sopCount : 0.0; }
};

// Hugging Face AlbertForPreTraining's loss: cross entropy of the MLM logits against labels (-100 ignored,
// mean over the rest) plus cross entropy of the sentence-order logits, summed. The losses are computed
// in fp32 whatever the logits' dtype. Throws std::invalid_argument for labels of the wrong shape, dtype
// or range (MLM labels in [0, V) or -100, SOP labels 0 or 1).
class PreTrainingLoss {
public:
    static PreTrainingLossValues compute(const MaskedPreTrainingOutput& output, const at::Tensor& sopLabels);
    // From full logits: selects the labelled positions of mlmLabels [B,L] first; same values as above.
    static PreTrainingLossValues compute(const PreTrainingOutput& output, const at::Tensor& mlmLabels,
                                         const at::Tensor& sopLabels);
};

} // namespace sahaj::model
