#pragma once

#include "core/text/PreTokenizerPieces.h"

namespace sahaj::text {

// One step of the pre-tokenizer of a tokenizer.json: cuts (and for Metaspace rewrites) the pieces of a
// normalized text. The model then tokenizes each piece on its own. Immutable and thread-safe.
class PreTokenizer {
public:
    virtual ~PreTokenizer() = default;
    virtual void preTokenize(PreTokenizerPieces& pieces) const = 0;
};

} // namespace sahaj::text
