#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace sahaj::collab {

// Wall-clock time at the millisecond, as progress records carry it across machines (ProgressRecord.time_ms).
using WallTimeMs = std::chrono::time_point<std::chrono::system_clock, std::chrono::milliseconds>;

// One peer's progress towards the current epoch, as it publishes it under "<run>/progress".
struct PeerProgress {
    std::string peerId; // 32 bytes: the peer's Ed25519 public key
    std::uint64_t epoch = 0;
    std::uint64_t samplesAccumulated = 0; // in `epoch`, as of `measuredAt`
    double samplesPerSecond = 0.0;        // 0: not measured yet
    WallTimeMs measuredAt{};              // when the two figures above were true
    bool clientMode = false;              // a client does not decide the global epoch
    bool coordinator = false;             // its owner's access token has the coordinator role (read only)
    // The group (its 16-byte id) whose gradient round the peer began at `epoch`; empty before.
    std::string averagingGroup;
    WallTimeMs expiresAt{}; // readers ignore the record from then on
};

} // namespace sahaj::collab
