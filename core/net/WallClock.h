#pragma once

#include <chrono>
#include <cstdint>

namespace sahaj::net {

// Milliseconds since the Unix epoch by this machine's clock: the time that tokens, requests and records
// carry on the wire (each reader bounds it against its own clock).
inline std::int64_t wallClockMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace sahaj::net
