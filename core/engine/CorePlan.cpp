#include "core/engine/CorePlan.h"

namespace sahaj::engine {

std::string CorePlan::summary() const {
    std::string text;
    for (const std::string& line : training)
        text += (text.empty() ? "" : "; ") + line;
    return text;
}

bool CorePlan::usesGpu() const {
    return !devices.empty() && !devices.front().empty() && devices.front().front().device != "cpu";
}

} // namespace sahaj::engine
