#include "core/text/NormalizerLowercase.h"

namespace sahaj::text {

void NormalizerLowercase::normalize(QString& text) const {
    // QString::toLower applies the full per-character mappings (special casing included) and no
    // context rules, which is exactly char::to_lowercase applied to each character; it leaves the
    // string untouched when nothing changes.
    text = std::move(text).toLower();
}

} // namespace sahaj::text
