#pragma once

#include "core/eval/MaskedLmRecord.h"
#include "core/text/CorpusReader.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace sahaj::text {
class Tokenizer;
}

namespace sahaj::eval {

// Masked-LM evaluation records drawn from raw text by the same pipeline that trains the model (sentence
// split, packing, A/B split and swap, 15 % masking), so evaluation sees what training sees. A function of
// (corpus, tokenizer, sequence length, seed, document layout) alone: the same arguments give the same
// records on every machine.
class MaskedLmCorpusSample {
public:
    // Up to `count` records from one pass over the corpus (fewer when the corpus ends first). Throws what
    // the corpus reader throws (unreadable file, malformed JSONL line naming it), and
    // std::runtime_error when the corpus yields no example.
    static std::vector<MaskedLmRecord> build(const QString& corpusPath, const text::Tokenizer& tokenizer,
                                             int sequenceLength, std::uint64_t seed, std::int64_t count,
                                             text::PlainTextDocuments documents);
};

} // namespace sahaj::eval
