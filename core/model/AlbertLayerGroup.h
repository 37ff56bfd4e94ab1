#pragma once

#include "core/model/AlbertConfig.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// inner_group_num layers applied one after the other; a group is the unit ALBERT shares between its layer
// applications. Parameters: albert_layers.<k>.* for k < inner_group_num.
class AlbertLayerGroupImpl : public torch::nn::Module {
public:
    explicit AlbertLayerGroupImpl(const AlbertConfig& config);

    at::Tensor forward(at::Tensor hidden, const at::Tensor& additiveMask);

    torch::nn::ModuleList albertLayers{nullptr};
};
TORCH_MODULE(AlbertLayerGroup);

} // namespace sahaj::model
