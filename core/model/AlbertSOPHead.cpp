#include "core/model/AlbertSOPHead.h"

#include <torch/torch.h>

namespace sahaj::model {

AlbertSOPHeadImpl::AlbertSOPHeadImpl(const AlbertConfig& config) : dropout_(config.classifierDropoutProb) {
    classifier = register_module("classifier", torch::nn::Linear(config.hiddenSize, 2));
}

at::Tensor AlbertSOPHeadImpl::forward(const at::Tensor& pooled) {
    const at::Tensor input = dropout_ > 0.0 ? torch::dropout(pooled, dropout_, is_training()) : pooled;
    return classifier(input);
}

} // namespace sahaj::model
