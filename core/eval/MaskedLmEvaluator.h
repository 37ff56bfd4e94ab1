#pragma once

#include "core/eval/MaskedLmRecord.h"
#include "core/eval/MaskedLmScores.h"
#include "core/compute/TokenBatch.h"

#include <c10/core/Device.h>

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::model {
class AlbertForPreTraining;
struct AlbertConfig;
} // namespace sahaj::model

namespace sahaj::text {
}

namespace sahaj::eval {

// Scores a pre-training model on masked-LM records: the model in eval mode, no gradients, batches of
// `batchSize` records padded to their longest, losses summed over the whole set (MaskedLmScores).
class MaskedLmEvaluator {
public:
    // Throws std::runtime_error "line N: ..." for a record the model cannot take (id outside the
    // vocabulary, token type outside the type vocabulary, sequence longer than the position table),
    // before any computation.
    // `origin` (a file name) prefixes the message when given.
    static void checkRecords(const std::vector<MaskedLmRecord>& records, const model::AlbertConfig& config,
                             const std::string& origin = {});

    static MaskedLmScores evaluate(model::AlbertForPreTraining& model,
                                   const std::vector<MaskedLmRecord>& records, std::int64_t batchSize,
                                   c10::Device device = c10::kCPU, const std::string& origin = {});

    // Records [begin, end) as int64 tensors padded with padId to the longest (attention 0, label -100).
    static compute::TokenBatch collate(const std::vector<MaskedLmRecord>& records, std::size_t begin,
                                          std::size_t end, std::int64_t padId);
};

} // namespace sahaj::eval
