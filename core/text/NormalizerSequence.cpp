#include "core/text/NormalizerSequence.h"

namespace sahaj::text {

void NormalizerSequence::normalize(QString& text) const {
    for (const auto& step : steps_)
        step->normalize(text);
}

} // namespace sahaj::text
