#include "core/text/PreTokenizerPunctuation.h"

namespace sahaj::text {

void PreTokenizerPunctuation::preTokenize(PreTokenizerPieces& pieces) const {
    PreTokenizerSplitter::split(pieces, behavior_, &TokenizerUnicode::isPunctuation);
}

} // namespace sahaj::text
