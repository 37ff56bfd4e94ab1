#pragma once

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

    // Why `record` is unacceptable, or nothing when it is fine.
    static std::optional<std::string> problemWith(const PeerProgress& record);
};

} // namespace sahaj::collab
