#include "core/model/AlbertLayerGroup.h"

#include "core/model/AlbertLayer.h"

#include <torch/torch.h>

namespace sahaj::model {

AlbertLayerGroupImpl::AlbertLayerGroupImpl(const AlbertConfig& config) {
    albertLayers = register_module("albert_layers", torch::nn::ModuleList());
    for (std::int64_t i = 0; i < config.innerGroupNum; ++i)
        albertLayers->push_back(AlbertLayer(config));
}

at::Tensor AlbertLayerGroupImpl::forward(at::Tensor hidden, const at::Tensor& additiveMask) {
    for (const auto& layer : *albertLayers)
        hidden = layer->as<AlbertLayerImpl>()->forward(hidden, additiveMask);
    return hidden;
}

} // namespace sahaj::model
