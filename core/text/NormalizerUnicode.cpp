#include "core/text/NormalizerUnicode.h"

namespace sahaj::text {

void NormalizerUnicode::normalize(QString& text) const {
    // Qt returns ASCII and already-normalized text without copying (quick check first).
    text = text.normalized(form_, QChar::Unicode_9_0);
}

} // namespace sahaj::text
