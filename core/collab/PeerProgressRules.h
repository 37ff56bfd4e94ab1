#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace sahaj::collab {

struct PeerProgress;

// What a progress record must look like to be counted. Records come from other peers and are untrusted:
// one NaN rate would poison every sum and every ETA, one huge count would end every epoch at once. A record
// that breaks a rule is ignored (and counted), never repaired.
class PeerProgressRules {
public:
    static constexpr std::size_t kPeerIdSize = 32;
    // No collaboration accumulates a trillion samples in one epoch (sahajBERT's batch is 4096).
    static constexpr std::uint64_t kMaxSamples = 1'000'000'000'000;
    // Nor does one peer process a billion samples a second.
    static constexpr double kMaxSamplesPerSecond = 1e9;
    // A record's figures are measured before it is signed and published, by the same clock: at most a
    // day before (a paused peer republishes its last figures) and never after, but for this much
    // rounding. Outside that window a time is a lie, and one near the ends of the clock's range (0,
    // 2^63 ms) would overflow the arithmetic of every reader.
    static constexpr std::chrono::hours kMaxMeasurementAge{24};
    static constexpr std::chrono::seconds kMaxMeasurementLead{1};

    // Why `record` is unacceptable, or nothing when it is fine.
    static std::optional<std::string> problemWith(const PeerProgress& record);
    // Why a record published at `issuedAt` (its signed envelope's time) cannot have been measured at
    // `measuredAtMs` (milliseconds since the epoch, as on the wire), or nothing when it can.
    static std::optional<std::string> timeProblem(std::uint64_t measuredAtMs,
                                                  std::chrono::system_clock::time_point issuedAt);
};

} // namespace sahaj::collab
