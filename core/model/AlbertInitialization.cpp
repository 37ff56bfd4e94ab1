#include "core/model/AlbertInitialization.h"

#include <torch/torch.h>

namespace sahaj::model {

void initializeAlbertWeights(torch::nn::Module& module, double std) {
    torch::NoGradGuard noGrad;
    for (const auto& child : module.modules(/*include_self=*/false)) {
        if (auto* linear = child->as<torch::nn::Linear>()) {
            linear->weight.normal_(0.0, std);
            if (linear->bias.defined())
                linear->bias.zero_();
        } else if (auto* embedding = child->as<torch::nn::Embedding>()) {
            embedding->weight.normal_(0.0, std);
            if (const auto& padding = embedding->options.padding_idx())
                embedding->weight[*padding].zero_();
        } else if (auto* norm = child->as<torch::nn::LayerNorm>()) {
            norm->weight.fill_(1.0);
            norm->bias.zero_();
        }
    }
}

} // namespace sahaj::model
