#include "core/eval/MaskedLmCorpusSample.h"

#include "core/eval/MaskedLmJsonl.h"
#include "core/text/PretrainingStream.h"

#include <stdexcept>

namespace sahaj::eval {

std::vector<MaskedLmRecord> MaskedLmCorpusSample::build(const QString& corpusPath,
                                                        const text::Tokenizer& tokenizer, int sequenceLength,
                                                        std::uint64_t seed, std::int64_t count,
                                                        text::PlainTextDocuments documents) {
    text::PretrainingStreamOptions options;
    options.corpus.documents = documents;
    // One example per draw, so the sample can stop exactly where the corpus's first pass ends: the stream
    // itself never ends, it starts a new pass with a fresh shuffle and new masks.
    text::PretrainingStream stream(corpusPath, tokenizer, sequenceLength, /*batchSize=*/1, seed, options);
    std::vector<MaskedLmRecord> records;
    while (static_cast<std::int64_t>(records.size()) < count) {
        std::vector<text::PretrainingExample> examples = stream.nextExamples();
        if (stream.position().pass > 0)
            break;
        records.push_back(MaskedLmJsonl::fromExample(examples.front()));
    }
    if (records.empty())
        throw std::runtime_error(corpusPath.toStdString() + ": the corpus gives no example");
    return records;
}

} // namespace sahaj::eval
