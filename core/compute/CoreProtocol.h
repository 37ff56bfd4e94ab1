#pragma once

#include <chrono>
#include <cstdint>

namespace sahaj::compute {

// The constants both ends of the core channel agree on (docs/compute-cores.md).
struct CoreProtocol {
    static constexpr std::uint32_t kVersion = 1;
    // The core's descriptor for its channel, as the engine starts it: sahaj-core --channel-fd 3.
    static constexpr int kChannelFd = 3;
    // A working core says so this often; an idle one says nothing (the engine knows it is idle).
    static constexpr std::chrono::milliseconds kHeartbeatInterval{1000};
    // The engine's Hello must come this soon after the core starts.
    static constexpr std::chrono::milliseconds kHelloTimeout{30000};
};

} // namespace sahaj::compute
