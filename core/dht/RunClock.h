#pragma once

#include <chrono>
#include <functional>

namespace sahaj::dht {

// The time a node stamps its records with and judges others' by: this computer's clock plus an offset its
// owner keeps (DhtNodeOptions::clockOffset: the run's time, which a volunteer learns from its coordinator).
using RunClock = std::function<std::chrono::system_clock::time_point()>;

inline RunClock runClockWith(std::function<std::chrono::milliseconds()> offset) {
    if (!offset)
        return [] { return std::chrono::system_clock::now(); };
    return [offset = std::move(offset)] { return std::chrono::system_clock::now() + offset(); };
}

} // namespace sahaj::dht
