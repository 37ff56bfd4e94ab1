#pragma once

#include "core/compute/TokenBatch.h"
#include "core/text/PretrainingExample.h"

#include <vector>

namespace sahaj::text {

enum class PaddingMode {
    Longest,        // pad to the longest example of the batch: less compute on short text
    SequenceLength, // always pad to the sequence length: fixed shapes (steady memory, compiled graphs)
};

// Stacks examples into a padded batch with an attention mask.
class BatchCollator {
public:
    // sequenceLength is required (> 0) for PaddingMode::SequenceLength and otherwise an upper bound
    // checked when > 0.
    BatchCollator(int padId, PaddingMode mode = PaddingMode::Longest, int sequenceLength = 0);

    compute::TokenBatch collate(const std::vector<PretrainingExample>& examples) const;

private:
    int padId_;
    PaddingMode mode_;
    int sequenceLength_;
};

} // namespace sahaj::text
