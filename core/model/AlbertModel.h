#pragma once

#include "core/model/AlbertConfig.h"
#include "core/model/AlbertEmbeddings.h"
#include "core/model/AlbertTransformer.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

namespace sahaj::model {

// The ALBERT body ("albert." in Hugging Face names): embeddings, the shared-layer encoder and the pooler.
// Parameters: embeddings.*, encoder.*, pooler.weight [H,H], pooler.bias [H]. Without the pooler (as
// Hugging Face's add_pooling_layer=False, used by token classification) the pooler.* parameters are absent.
class AlbertModelImpl : public torch::nn::Module {
public:
    explicit AlbertModelImpl(const AlbertConfig& config, bool withPooler = true);

    // inputIds, tokenTypeIds: [B,L] int64 (or int32); attentionMask: [B,L], 1 (or true) for tokens and 0
    // for padding, any numeric or bool dtype. Returns the last hidden states [B,L,H]. Throws
    // std::invalid_argument for shapes that disagree, a sequence longer than max_position_embeddings, or
    // ids outside the vocabulary / token types.
    at::Tensor forward(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                       const at::Tensor& tokenTypeIds);

    // tanh(pooler(hidden[:, 0])): the [CLS] summary the sentence-order head reads. [B,L,H] -> [B,H].
    // Throws std::logic_error on a model built without the pooler.
    at::Tensor pool(const at::Tensor& sequenceOutput);

    AlbertEmbeddings embeddings{nullptr};
    AlbertTransformer encoder{nullptr};
    torch::nn::Linear pooler{nullptr};

private:
    void checkInputs(const at::Tensor& inputIds, const at::Tensor& attentionMask,
                     const at::Tensor& tokenTypeIds) const;

    AlbertConfig config_;
};
TORCH_MODULE(AlbertModel);

} // namespace sahaj::model
