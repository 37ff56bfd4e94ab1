#include "core/collab/WeightBounds.h"

#include "core/collab/LowerMedian.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace sahaj::collab {

std::vector<double> WeightBounds::of(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                     std::chrono::system_clock::time_point now) {
    const Floor floor = typicalOf(spec, records);
    const std::vector<double> samples = reported(spec, records, now, kSlack, floor);
    std::vector<double> bounds;
    for (std::size_t i = 0; i < spec.members.size(); ++i) {
        // Without any rate, its own or the members' typical one (a run's first round, before records show
        // rates), what a member trained since it declared cannot be bounded: a fast honest peer trains a
        // thousand samples while a group forms. It is not banned for it; countedAtMost still caps its say.
        const bool rateKnown =
            floor.rate > 0.0 || std::any_of(records.begin(), records.end(), [&](const PeerProgress& r) {
                return r.peerId == spec.members[i].peerId && r.samplesPerSecond > 0.0;
            });
        bounds.push_back(rateKnown ? kFactor * samples[i] + kHeadroom
                                   : std::numeric_limits<double>::infinity());
    }
    return bounds;
}

std::vector<double> WeightBounds::countedAtMost(const GroupSpec& spec,
                                                const std::vector<PeerProgress>& records,
                                                std::chrono::system_clock::time_point now) {
    std::vector<double> contributors;
    // Without the slack, which bounds what a member may have trained while the round got going: an
    // estimate of each member's weight, not the most it may be.
    for (const double samples : reported(spec, records, now, std::chrono::seconds(0), Floor{}))
        if (samples > 0.0)
            contributors.push_back(samples);
    const std::optional<double> median = lowerMedian(std::move(contributors));
    const double most = median ? kShareFactor * *median : std::numeric_limits<double>::infinity();
    return std::vector<double>(spec.members.size(), most);
}

WeightBounds::Floor WeightBounds::typicalOf(const GroupSpec& spec, const std::vector<PeerProgress>& records) {
    // The members' typical rate: a member whose records show no rate yet (its first record was published
    // before its first micro-batch, or has not reached this peer) trains at about that rate all the same.
    // Held to its declaration alone, an honest newcomer was banned in its first round for the samples it
    // added between joining and handing over (seen: 312 against a bound of 256).
    std::vector<double> rates;
    for (const GroupMember& member : spec.members)
        for (const PeerProgress& record : records)
            if (record.peerId == member.peerId && record.samplesPerSecond > 0.0)
                rates.push_back(record.samplesPerSecond);
    // And its samples at joining are at least the members' typical declaration (the lower median of those
    // above 0, which one liar's 10^12 does not move): in a run's first round nobody's rate may be known yet.
    std::vector<double> declared;
    for (const GroupMember& member : spec.members)
        if (member.weight > 0.0)
            declared.push_back(member.weight);
    return {lowerMedian(std::move(declared)).value_or(0.0), lowerMedian(std::move(rates)).value_or(0.0)};
}

std::vector<double> WeightBounds::reported(const GroupSpec& spec, const std::vector<PeerProgress>& records,
                                           std::chrono::system_clock::time_point now,
                                           std::chrono::seconds slack, Floor floor) {
    std::vector<double> figures;
    for (const GroupMember& member : spec.members) {
        double reported =
            std::max(member.weight, floor.weight) + floor.rate * static_cast<double>(slack.count());
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
            const double rate = std::max(record.samplesPerSecond, floor.rate);
            reported = std::max(reported, base + rate * since);
        }
        figures.push_back(reported);
    }
    return figures;
}

} // namespace sahaj::collab
