#pragma once

#include "core/text/PreTokenizer.h"
#include "core/text/PreTokenizerSplitter.h"

namespace sahaj::text {

// The "Punctuation" pre-tokenizer: splits on punctuation characters (ASCII punctuation, Unicode P*),
// which by default become pieces of their own.
class PreTokenizerPunctuation : public PreTokenizer {
public:
    explicit PreTokenizerPunctuation(SplitBehavior behavior) : behavior_(behavior) {}
    void preTokenize(PreTokenizerPieces& pieces) const override;

private:
    SplitBehavior behavior_;
};

} // namespace sahaj::text
