#include "core/collab/WeightBounds.h"

#include "core/collab/LowerMedian.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace sahaj::collab {

std::vector<double> WeightBounds::of(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                     std::chrono::system_clock::time_point now) {
    std::vector<double> bounds;
    for (const double samples : reported(spec, records, now, kSlack))
        bounds.push_back(kFactor * samples + kHeadroom);
    return bounds;
}

std::vector<double> WeightBounds::countedAtMost(const GroupSpec& spec,
                                                const std::vector<PeerProgress>& records,
                                                std::chrono::system_clock::time_point now) {
    std::vector<double> contributors;
    // Without the slack, which bounds what a member may have trained while the round got going: an
    // estimate of each member's weight, not the most it may be.
    for (const double samples : reported(spec, records, now, std::chrono::seconds(0)))
        if (samples > 0.0)
            contributors.push_back(samples);
    const std::optional<double> median = lowerMedian(std::move(contributors));
    const double most = median ? kShareFactor * *median : std::numeric_limits<double>::infinity();
    return std::vector<double>(spec.members.size(), most);
}

std::vector<double> WeightBounds::reported(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                           std::chrono::system_clock::time_point now,
                                           std::chrono::seconds slack) {
    std::vector<double> figures;
    for (const GroupMember& member : spec.members) {
        double reported = member.weight;
        for (const PeerProgress& record : records) {
            if (record.peerId != member.peerId)
                continue;
            const double since = std::clamp(std::chrono::duration<double>(now - record.measuredAt).count(),
                                            0.0, static_cast<double>(kMaxExtrapolation.count())) +
                                 static_cast<double>(slack.count());
            // Its samples count for this epoch only; its rate bounds what it trained since the record in any
            // epoch. Without that, a member whose newest record here is of the previous epoch (it joined the
            // group early and kept training, as members do) was held to its declaration at joining, and
            // banned for the samples it added before handing over.
            const double base = record.epoch == spec.epoch
                                    ? std::max(member.weight, static_cast<double>(record.samplesAccumulated))
                                    : member.weight;
            reported = std::max(reported, base + record.samplesPerSecond * since);
        }
        figures.push_back(reported);
    }
    return figures;
}

} // namespace sahaj::collab
