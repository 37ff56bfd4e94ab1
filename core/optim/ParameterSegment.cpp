#include "core/optim/ParameterSegment.h"

#include <cmath>
#include <stdexcept>
#include <unordered_set>

namespace sahaj::optim {

std::size_t validateSegments(const std::vector<ParameterSegment>& segments) {
    std::unordered_set<std::string> names;
    std::size_t next = 0;
    for (const ParameterSegment& segment : segments) {
        if (!names.insert(segment.name).second)
            throw std::invalid_argument("parameter name '" + segment.name + "' appears twice");
        if (segment.length == 0)
            throw std::invalid_argument("parameter '" + segment.name + "' is empty");
        if (segment.offset != next)
            throw std::invalid_argument("parameter '" + segment.name + "' starts at " +
                                        std::to_string(segment.offset) + ", expected " +
                                        std::to_string(next));
        if (!std::isfinite(segment.weightDecay) || segment.weightDecay < 0.0)
            throw std::invalid_argument("parameter '" + segment.name + "' has an invalid weight decay");
        next += segment.length;
    }
    return next;
}

} // namespace sahaj::optim
