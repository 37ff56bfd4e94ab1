#include "core/net/WireText.h"

#include "core/net/WireLimits.h"

namespace sahaj::net {

std::string WireText::bounded(const QString& text) {
    return text.left(static_cast<qsizetype>(WireLimits::kMaxTextBytes / 3)).toStdString();
}

} // namespace sahaj::net
