#pragma once

#include "core/text/Normalizer.h"

namespace sahaj::text {

// The "Nmt" normalizer (from SentencePiece's nmt_nfkc rules): drops ASCII control characters and maps
// tabs, line breaks, zero-width characters (including ZWJ / ZWNJ), the metaspace sign U+2581, the BOM
// and U+FFFD to a plain space.
class NormalizerNmt : public Normalizer {
public:
    void normalize(QString& text) const override;
};

} // namespace sahaj::text
