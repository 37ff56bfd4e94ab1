#include "core/collab/PeerProgressRules.h"

#include "core/collab/PeerProgress.h"

#include <cmath>

namespace sahaj::collab {

std::optional<std::string> PeerProgressRules::problemWith(const PeerProgress& record) {
    if (record.peerId.size() != kPeerIdSize)
        return "peer id of " + std::to_string(record.peerId.size()) + " bytes, expected " +
               std::to_string(kPeerIdSize);
    if (record.samplesAccumulated > kMaxSamples)
        return "implausible sample count " + std::to_string(record.samplesAccumulated);
    if (!std::isfinite(record.samplesPerSecond) || record.samplesPerSecond < 0.0 ||
        record.samplesPerSecond > kMaxSamplesPerSecond)
        return "implausible rate " + std::to_string(record.samplesPerSecond) + " samples/s";
    return std::nullopt;
}

} // namespace sahaj::collab
