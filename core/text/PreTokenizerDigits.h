#pragma once

#include "core/text/PreTokenizer.h"

namespace sahaj::text {

// The "Digits" pre-tokenizer: numeric characters (any script) become pieces of their own, one per
// digit with `individual_digits`, one per run of digits otherwise.
class PreTokenizerDigits : public PreTokenizer {
public:
    explicit PreTokenizerDigits(bool individualDigits) : individualDigits_(individualDigits) {}
    void preTokenize(PreTokenizerPieces& pieces) const override;

private:
    bool individualDigits_;
};

} // namespace sahaj::text
