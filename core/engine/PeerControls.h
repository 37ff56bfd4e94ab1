#pragma once

#include <atomic>
#include <cstdint>

namespace sahaj::engine {

// What another thread (the app's engine facade) may change while a peer trains, read by the training
// loop between micro-batches. Each field is atomic on its own; no field depends on another's value
// at the same instant.
struct PeerControls {
    std::atomic<bool> stop{false};
    // Leave the collaboration (publish the departure, close every socket) and compute nothing until
    // cleared; the replica and the current batch's gradient are kept, so a short pause costs no state
    // download when the collaboration has not moved on by more than an epoch.
    std::atomic<bool> paused{false};
    std::atomic<double> dutyCycle{0.0}; // (0, 1]; 0: PeerOptions::dutyCycle
    std::atomic<int> microBatch{0};     // samples per micro-batch; 0: as configured
    // Caps in bytes per second (0: none), applied when capsVersion changes (set the caps first).
    std::atomic<double> uploadCap{0.0};
    std::atomic<double> downloadCap{0.0};
    std::atomic<std::uint64_t> capsVersion{0};
};

} // namespace sahaj::engine
