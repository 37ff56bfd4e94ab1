#include "core/text/BatchCollator.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::text {

BatchCollator::BatchCollator(int padId, PaddingMode mode, int sequenceLength)
    : padId_(padId), mode_(mode), sequenceLength_(sequenceLength) {
    if (mode == PaddingMode::SequenceLength && sequenceLength <= 0)
        throw std::invalid_argument("BatchCollator: padding to the sequence length needs a positive length");
}

PretrainingBatch BatchCollator::collate(const std::vector<PretrainingExample>& examples) const {
    if (examples.empty())
        throw std::invalid_argument("BatchCollator: cannot collate an empty batch");
    std::size_t longest = 0;
    for (std::size_t i = 0; i < examples.size(); ++i) {
        const auto& e = examples[i];
        if (e.inputIds.empty() || e.tokenTypeIds.size() != e.inputIds.size() ||
            (!e.mlmLabels.empty() && e.mlmLabels.size() != e.inputIds.size()))
            throw std::invalid_argument("BatchCollator: example " + std::to_string(i) +
                                        " has inconsistent lengths (ids, token types, labels)");
        longest = std::max(longest, e.inputIds.size());
    }
    if (sequenceLength_ > 0 && longest > static_cast<std::size_t>(sequenceLength_))
        throw std::invalid_argument("BatchCollator: an example has " + std::to_string(longest) +
                                    " tokens, more than the sequence length " +
                                    std::to_string(sequenceLength_));
    const auto width = static_cast<std::int64_t>(
        mode_ == PaddingMode::SequenceLength ? static_cast<std::size_t>(sequenceLength_) : longest);
    const auto rows = static_cast<std::int64_t>(examples.size());

    const auto options = torch::TensorOptions().dtype(torch::kInt64);
    PretrainingBatch batch;
    batch.inputIds = torch::full({rows, width}, static_cast<std::int64_t>(padId_), options);
    batch.attentionMask = torch::zeros({rows, width}, options);
    batch.tokenTypeIds = torch::zeros({rows, width}, options);
    batch.mlmLabels = torch::full({rows, width}, kIgnoreLabel, options);
    batch.sopLabels = torch::empty({rows}, options);

    auto ids = batch.inputIds.accessor<std::int64_t, 2>();
    auto mask = batch.attentionMask.accessor<std::int64_t, 2>();
    auto types = batch.tokenTypeIds.accessor<std::int64_t, 2>();
    auto labels = batch.mlmLabels.accessor<std::int64_t, 2>();
    auto sop = batch.sopLabels.accessor<std::int64_t, 1>();
    for (std::int64_t r = 0; r < rows; ++r) {
        const auto& e = examples[static_cast<std::size_t>(r)];
        for (std::size_t t = 0; t < e.inputIds.size(); ++t) {
            const auto c = static_cast<std::int64_t>(t);
            ids[r][c] = e.inputIds[t];
            mask[r][c] = 1;
            types[r][c] = e.tokenTypeIds[t];
            if (!e.mlmLabels.empty())
                labels[r][c] = e.mlmLabels[t];
        }
        sop[r] = e.sopLabel;
    }
    return batch;
}

} // namespace sahaj::text
