#pragma once

#include "core/eval/MaskedLmRecord.h"

#include <QString>

#include <vector>

namespace sahaj::text {
struct PretrainingExample;
}

namespace sahaj::eval {

// Masked-LM evaluation data as JSONL: one object per line with the integer arrays "input_ids",
// "token_type_ids", "attention_mask", "labels" (-100 where nothing is scored) and the integer
// "sentence_order_label"; blank lines are skipped, other keys ignored.
class MaskedLmJsonl {
public:
    // The longest sequence a line may hold: far above any position table, low enough that a damaged
    // file cannot make the evaluator allocate without bound.
    static constexpr std::size_t kMaxSequenceLength = 1 << 16;

    // Throws std::runtime_error "PATH:LINE: problem" for a line that is not such an object, arrays of
    // different lengths, an attention value other than 0/1, a label below -100, a sentence-order label
    // other than 0/1; and for a file without any record.
    static std::vector<MaskedLmRecord> read(const QString& path);
    // Writes atomically (temporary file, then rename). Throws std::runtime_error on I/O errors.
    static void write(const QString& path, const std::vector<MaskedLmRecord>& records);

    // An unpadded record of a masked example (attention 1 everywhere).
    static MaskedLmRecord fromExample(const text::PretrainingExample& example);
};

} // namespace sahaj::eval
