#include "core/text/PreTokenizerDigits.h"

#include "core/text/PreTokenizerSplitter.h"

namespace sahaj::text {

void PreTokenizerDigits::preTokenize(PreTokenizerPieces& pieces) const {
    PreTokenizerSplitter::split(pieces,
                                individualDigits_ ? SplitBehavior::Isolated : SplitBehavior::Contiguous,
                                &TokenizerUnicode::isNumeric);
}

} // namespace sahaj::text
