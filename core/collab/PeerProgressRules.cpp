#include "core/collab/PeerProgressRules.h"

#include "core/collab/PeerProgress.h"
#include "core/net/WireLimits.h"

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
    if (!record.averagingGroup.empty() && record.averagingGroup.size() != net::WireLimits::kGroupIdBytes)
        return "averaging group id of " + std::to_string(record.averagingGroup.size()) + " bytes, expected " +
               std::to_string(net::WireLimits::kGroupIdBytes);
    return std::nullopt;
}

std::optional<std::string> PeerProgressRules::timeProblem(std::uint64_t measuredAtMs,
                                                          std::chrono::system_clock::time_point issuedAt) {
    using std::chrono::milliseconds;
    const std::int64_t issued = std::chrono::duration_cast<milliseconds>(issuedAt.time_since_epoch()).count();
    const std::int64_t earliest = issued - milliseconds(kMaxMeasurementAge).count();
    const std::int64_t latest = issued + milliseconds(kMaxMeasurementLead).count();
    // Compared as unsigned against a window inside [0, 2^63): no value of the wire can overflow here.
    if (earliest < 0 || measuredAtMs < static_cast<std::uint64_t>(earliest) ||
        measuredAtMs > static_cast<std::uint64_t>(latest))
        return "measured at " + std::to_string(measuredAtMs) +
               " ms, not within a day before its publication at " + std::to_string(issued) + " ms";
    return std::nullopt;
}

} // namespace sahaj::collab
