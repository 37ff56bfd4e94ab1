#include "core/text/BatchCollator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::text {

BatchCollator::BatchCollator(int padId, PaddingMode mode, int sequenceLength)
    : padId_(padId), mode_(mode), sequenceLength_(sequenceLength) {
    if (mode == PaddingMode::SequenceLength && sequenceLength <= 0)
        throw std::invalid_argument("BatchCollator: padding to the sequence length needs a positive length");
}

compute::TokenBatch BatchCollator::collate(const std::vector<PretrainingExample>& examples) const {
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

    compute::TokenBatch batch = compute::TokenBatch::padded(rows, width, padId_);
    for (std::int64_t r = 0; r < rows; ++r) {
        const auto& e = examples[static_cast<std::size_t>(r)];
        for (std::size_t t = 0; t < e.inputIds.size(); ++t) {
            const auto cell = static_cast<std::size_t>(batch.index(r, static_cast<std::int64_t>(t)));
            batch.inputIds[cell] = e.inputIds[t];
            batch.attentionMask[cell] = 1;
            batch.tokenTypeIds[cell] = e.tokenTypeIds[t];
            if (!e.mlmLabels.empty())
                batch.mlmLabels[cell] = e.mlmLabels[t];
        }
        batch.sopLabels[static_cast<std::size_t>(r)] = e.sopLabel;
    }
    return batch;
}

} // namespace sahaj::text
