#include "core/collab/WeightBounds.h"

#include <algorithm>

namespace sahaj::collab {

std::vector<double> WeightBounds::of(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                     std::chrono::system_clock::time_point now) {
    std::vector<double> bounds;
    for (const GroupMember& member : spec.members) {
        double reported = member.weight;
        for (const PeerProgress& record : records) {
            if (record.peerId != member.peerId)
                continue;
            const double since = std::clamp(std::chrono::duration<double>(now - record.measuredAt).count(),
                                            0.0, static_cast<double>(kMaxExtrapolation.count())) +
                                 static_cast<double>(kSlack.count());
            // Its samples count for this epoch only; its rate bounds what it trained since the record in any
            // epoch. Without that, a member whose newest record here is of the previous epoch (it joined the
            // group early and kept training, as members do) was held to its declaration at joining, and
            // banned for the samples it added before handing over.
            const double base = record.epoch == spec.epoch
                                    ? std::max(member.weight, static_cast<double>(record.samplesAccumulated))
                                    : member.weight;
            reported = std::max(reported, base + record.samplesPerSecond * since);
        }
        bounds.push_back(kFactor * reported + kHeadroom);
    }
    return bounds;
}

} // namespace sahaj::collab
