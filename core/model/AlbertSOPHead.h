#pragma once

#include "core/model/AlbertConfig.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// The sentence-order head ("sop_classifier."): dropout, then a linear map of the pooled [CLS] vector to two
// logits (0: segments in order, 1: swapped). Parameters: classifier.weight [2,H], classifier.bias [2].
class AlbertSOPHeadImpl : public torch::nn::Module {
public:
    explicit AlbertSOPHeadImpl(const AlbertConfig& config);

    // pooled: [B,H] -> [B,2].
    at::Tensor forward(const at::Tensor& pooled);

    torch::nn::Linear classifier{nullptr};

private:
    double dropout_;
};
TORCH_MODULE(AlbertSOPHead);

} // namespace sahaj::model
