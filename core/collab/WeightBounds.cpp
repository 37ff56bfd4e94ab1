#include "core/collab/WeightBounds.h"

#include <algorithm>

namespace sahaj::collab {

std::vector<double> WeightBounds::of(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                     std::chrono::system_clock::time_point now) {
    std::vector<double> bounds;
    for (const GroupMember& member : spec.members) {
        double reported = member.weight;
        for (const PeerProgress& record : records) {
            if (record.peerId != member.peerId || record.epoch != spec.epoch)
                continue;
            const double since =
                std::max(0.0, std::chrono::duration<double>(now - record.measuredAt).count()) +
                static_cast<double>(kSlack.count());
            reported = std::max(reported, static_cast<double>(record.samplesAccumulated) +
                                              record.samplesPerSecond * since);
        }
        bounds.push_back(kFactor * reported + kHeadroom);
    }
    return bounds;
}

} // namespace sahaj::collab
