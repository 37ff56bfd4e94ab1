#pragma once

#include "core/text/PreTokenizer.h"

#include <memory>
#include <vector>

namespace sahaj::text {

// The "Sequence" pre-tokenizer: each step refines the pieces of the previous one.
class PreTokenizerSequence : public PreTokenizer {
public:
    explicit PreTokenizerSequence(std::vector<std::unique_ptr<const PreTokenizer>> steps)
        : steps_(std::move(steps)) {}
    void preTokenize(PreTokenizerPieces& pieces) const override;

private:
    std::vector<std::unique_ptr<const PreTokenizer>> steps_;
};

} // namespace sahaj::text
