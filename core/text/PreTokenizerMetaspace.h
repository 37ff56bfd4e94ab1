#pragma once

#include "core/text/PreTokenizer.h"

namespace sahaj::text {

// The "Metaspace" pre-tokenizer (SentencePiece style): every space becomes the replacement character
// (normally ▁), a replacement is prepended to a piece that does not start with one (always, only at
// the start of the text, or never), and with `split` the text is cut before each replacement.
class PreTokenizerMetaspace : public PreTokenizer {
public:
    enum class PrependScheme { Always, First, Never };
    PreTokenizerMetaspace(char32_t replacement, PrependScheme scheme, bool split);
    void preTokenize(PreTokenizerPieces& pieces) const override;

private:
    char32_t replacement_;
    QString replacementText_;
    PrependScheme scheme_;
    bool split_;
};

} // namespace sahaj::text
