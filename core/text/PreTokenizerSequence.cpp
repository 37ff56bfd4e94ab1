#include "core/text/PreTokenizerSequence.h"

namespace sahaj::text {

void PreTokenizerSequence::preTokenize(PreTokenizerPieces& pieces) const {
    for (const auto& step : steps_)
        step->preTokenize(pieces);
}

} // namespace sahaj::text
