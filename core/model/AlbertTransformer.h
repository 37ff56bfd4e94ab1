#pragma once

#include "core/model/AlbertConfig.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// The encoder: projects the embeddings to the hidden size, then applies num_hidden_layers layers, layer i
// using the shared weights of group floor(i * num_hidden_groups / num_hidden_layers).
// Parameters: embedding_hidden_mapping_in.weight [H,E] .bias [H], albert_layer_groups.<g>.*.
class AlbertTransformerImpl : public torch::nn::Module {
public:
    explicit AlbertTransformerImpl(const AlbertConfig& config);

    // embeddings: [B,L,E], additiveMask: [B,1,1,L]. Returns [B,L,H].
    at::Tensor forward(const at::Tensor& embeddings, const at::Tensor& additiveMask);

    torch::nn::Linear embeddingHiddenMappingIn{nullptr};
    torch::nn::ModuleList albertLayerGroups{nullptr};

private:
    std::int64_t layers_;
    std::int64_t groups_;
};
TORCH_MODULE(AlbertTransformer);

} // namespace sahaj::model
