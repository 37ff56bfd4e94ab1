#include "core/model/PreTrainingLoss.h"

#include <torch/torch.h>

#include <stdexcept>

namespace sahaj::model {

namespace {

void checkLabelRange(const at::Tensor& labels, std::int64_t limit, const char* what) {
    if (labels.numel() == 0)
        return;
    const auto [low, high] = at::aminmax(labels);
    if (low.item<std::int64_t>() < 0 || high.item<std::int64_t>() >= limit)
        throw std::invalid_argument(std::string(what) + " must lie in [0, " + std::to_string(limit) +
                                    "), got values in [" + std::to_string(low.item<std::int64_t>()) + ", " +
                                    std::to_string(high.item<std::int64_t>()) + "]");
}

// Cross entropy in at least fp32: a log-softmax over 32,000 classes in fp16 loses most of its precision.
at::Tensor atLeastFloat(const at::Tensor& t) {
    return t.scalar_type() == at::kHalf || t.scalar_type() == at::kBFloat16 ? t.to(at::kFloat) : t;
}

std::int64_t countCorrect(const at::Tensor& logits, const at::Tensor& labels) {
    if (labels.numel() == 0)
        return 0;
    return logits.detach().argmax(-1).eq(labels).sum().item<std::int64_t>();
}

} // namespace

PreTrainingLossValues PreTrainingLoss::compute(const MaskedPreTrainingOutput& output,
                                               const at::Tensor& sopLabels) {
    const at::Tensor& logits = output.mlmLogits;
    const at::Tensor& labels = output.mlmLabels;
    if (logits.dim() != 2 || labels.dim() != 1 || labels.size(0) != logits.size(0))
        throw std::invalid_argument("masked MLM logits must be [N,V] with N labels");
    if (labels.scalar_type() != at::kLong || !sopLabels.defined() || sopLabels.scalar_type() != at::kLong)
        throw std::invalid_argument("MLM and SOP labels must be int64 tensors");
    if (sopLabels.dim() != 1 || sopLabels.size(0) != output.sopLogits.size(0))
        throw std::invalid_argument("SOP labels must have shape [" +
                                    std::to_string(output.sopLogits.size(0)) + "], one per sequence");
    checkLabelRange(labels, logits.size(1), "MLM labels");
    checkLabelRange(sopLabels, 2, "SOP labels");

    PreTrainingLossValues values;
    // With no labelled position the mean is 0/0; a zero that stays connected to the graph keeps backward()
    // valid for the whole batch.
    values.mlmLoss = labels.numel() > 0 ? torch::cross_entropy_loss(atLeastFloat(logits), labels)
                                        : atLeastFloat(logits).sum() * 0.0;
    values.sopLoss = torch::cross_entropy_loss(atLeastFloat(output.sopLogits), sopLabels);
    values.total = values.mlmLoss + values.sopLoss;
    values.mlmCorrect = countCorrect(logits, labels);
    values.mlmCount = labels.numel();
    values.sopCorrect = countCorrect(output.sopLogits, sopLabels);
    values.sopCount = sopLabels.numel();
    return values;
}

PreTrainingLossValues PreTrainingLoss::compute(const PreTrainingOutput& output, const at::Tensor& mlmLabels,
                                               const at::Tensor& sopLabels) {
    const at::Tensor& logits = output.mlmLogits;
    if (logits.dim() != 3 || !mlmLabels.defined() || mlmLabels.dim() != 2 ||
        mlmLabels.size(0) != logits.size(0) || mlmLabels.size(1) != logits.size(1))
        throw std::invalid_argument("MLM labels must be [B,L] matching MLM logits [B,L,V]");
    if (mlmLabels.scalar_type() != at::kLong)
        throw std::invalid_argument("MLM and SOP labels must be int64 tensors");
    const at::Tensor flatLabels = mlmLabels.reshape({-1});
    const at::Tensor positions = flatLabels.ne(-100).nonzero().squeeze(1);
    const MaskedPreTrainingOutput masked{logits.reshape({-1, logits.size(2)}).index_select(0, positions),
                                         flatLabels.index_select(0, positions), output.sopLogits};
    return compute(masked, sopLabels);
}

} // namespace sahaj::model
