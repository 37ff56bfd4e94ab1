#include "core/model/AlbertTransformer.h"

#include "core/model/AlbertLayerGroup.h"

#include <torch/torch.h>

namespace sahaj::model {

AlbertTransformerImpl::AlbertTransformerImpl(const AlbertConfig& config)
    : layers_(config.numHiddenLayers), groups_(config.numHiddenGroups) {
    embeddingHiddenMappingIn = register_module("embedding_hidden_mapping_in",
                                               torch::nn::Linear(config.embeddingSize, config.hiddenSize));
    albertLayerGroups = register_module("albert_layer_groups", torch::nn::ModuleList());
    for (std::int64_t g = 0; g < groups_; ++g)
        albertLayerGroups->push_back(AlbertLayerGroup(config));
}

at::Tensor AlbertTransformerImpl::forward(const at::Tensor& embeddings, const at::Tensor& additiveMask) {
    at::Tensor hidden = embeddingHiddenMappingIn(embeddings);
    for (std::int64_t i = 0; i < layers_; ++i) {
        // Hugging Face computes int(i / (layers / groups)); the integer form is the same without rounding.
        const std::int64_t group = i * groups_ / layers_;
        hidden = albertLayerGroups->at<AlbertLayerGroupImpl>(static_cast<std::size_t>(group))
                     .forward(hidden, additiveMask);
    }
    return hidden;
}

} // namespace sahaj::model
