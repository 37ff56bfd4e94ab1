#pragma once

#include <chrono>
#include <functional>

namespace sahaj::dht {

// The time a node stamps its records with and judges others' by (DhtNodeOptions::clock): the run's time,
// which a volunteer learns from its coordinator (net::CoordinatorClock::now), or this computer's clock.
using RunClock = std::function<std::chrono::system_clock::time_point()>;

} // namespace sahaj::dht
