#include "core/dht/ClockEvidence.h"

#include <algorithm>

namespace sahaj::dht {

std::string ClockEvidence::problem(std::vector<std::int64_t> offsetsMs) {
    if (offsetsMs.empty())
        return {};
    const auto middle = offsetsMs.begin() + static_cast<std::ptrdiff_t>(offsetsMs.size() / 2);
    std::nth_element(offsetsMs.begin(), middle, offsetsMs.end());
    const std::int64_t median = *middle;
    const std::string owners =
        std::to_string(offsetsMs.size()) + (offsetsMs.size() == 1 ? " peer" : " peers");
    if (median > kBehindAfterMs)
        return "this computer's clock is about " + std::to_string(median / 1000) +
               " s behind the run's: the records of its " + owners +
               " are dated that far in this computer's future, and peers refuse messages more than 2 min "
               "off: set the clock right (automatic date and time)";
    if (median < -kAheadAfterMs)
        return "the newest records of the run's " + owners + " are " + std::to_string(-median / 1000) +
               " s old by this computer's clock, though they are renewed every minute: either the clock is "
               "that far ahead (set it right: automatic date and time) or the run stopped that long ago";
    return {};
}

} // namespace sahaj::dht
