#pragma once

#include "core/text/Normalizer.h"

namespace sahaj::text {

// The "Lowercase" normalizer: Unicode lowercase mapping of each character on its own (Rust's
// char::to_lowercase), so İ becomes "i̇" but a final capital sigma becomes σ, not ς: tokenizers maps
// character by character and never applies the final-sigma context rule.
class NormalizerLowercase : public Normalizer {
public:
    void normalize(QString& text) const override;
};

} // namespace sahaj::text
