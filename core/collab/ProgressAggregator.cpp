#include "core/collab/ProgressAggregator.h"

#include "core/collab/LowerMedian.h"
#include "core/collab/PeerProgress.h"
#include "core/collab/PeerProgressRules.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace sahaj::collab {

namespace {

using Seconds = std::chrono::duration<double>;

bool isLive(const PeerProgress& record, ProgressAggregator::TimePoint now) {
    return record.expiresAt > now && !PeerProgressRules::problemWith(record);
}

// The epoch `quorum` of these records have reached (they hold at least that many).
std::uint64_t reachedBy(std::vector<std::uint64_t> epochs, std::size_t quorum) {
    const auto nth = epochs.begin() + static_cast<std::ptrdiff_t>(quorum - 1);
    std::nth_element(epochs.begin(), nth, epochs.end(), std::greater<>());
    return *nth;
}

std::uint64_t epochOf(const std::vector<const PeerProgress*>& live, std::uint64_t localEpoch,
                      const std::string& localPeerId) {
    std::vector<std::uint64_t> nodes;
    std::vector<std::uint64_t> clients;
    bool localNode = false; // this peer is a node: clients do not decide for it
    std::uint64_t epoch = localEpoch;
    for (const PeerProgress* record : live) {
        if (record->peerId == localPeerId) {
            localNode = !record->clientMode;
            continue;
        }
        // The organiser's coordinator is followed alone.
        if (record->coordinator)
            epoch = std::max(epoch, record->epoch);
        (record->clientMode ? clients : nodes).push_back(record->epoch);
    }
    std::vector<std::uint64_t>& voters = nodes.empty() && !localNode ? clients : nodes;
    if (!voters.empty())
        epoch = std::max(epoch, reachedBy(voters, ProgressAggregator::epochQuorum(voters.size())));
    return epoch;
}

} // namespace

std::size_t ProgressAggregator::epochQuorum(std::size_t n) {
    return n <= 1 ? n : std::max<std::size_t>(2, n / 3 + 1);
}

ProgressAggregator::ProgressAggregator(std::uint64_t targetBatchSize,
                                       std::chrono::milliseconds maxExtrapolation)
    : targetBatchSize_(targetBatchSize), maxExtrapolation_(maxExtrapolation) {
    if (targetBatchSize == 0 || targetBatchSize > PeerProgressRules::kMaxSamples)
        throw std::invalid_argument("progress: the target batch size must be between 1 and " +
                                    std::to_string(PeerProgressRules::kMaxSamples) + ", got " +
                                    std::to_string(targetBatchSize));
    if (maxExtrapolation.count() < 0 || maxExtrapolation > std::chrono::hours(24))
        throw std::invalid_argument("progress: the extrapolation bound must be between 0 and a day");
}

double ProgressAggregator::samplesAt(const PeerProgress& record, TimePoint now) const {
    const auto elapsed = std::clamp<TimePoint::duration>(now - record.measuredAt, TimePoint::duration::zero(),
                                                         maxExtrapolation_);
    return static_cast<double>(record.samplesAccumulated) +
           record.samplesPerSecond * Seconds(elapsed).count();
}

std::optional<ProgressAggregator::TimePoint>
ProgressAggregator::etaOf(double samples, double samplesPerSecond, TimePoint now) const {
    const double remaining = static_cast<double>(targetBatchSize_) - samples;
    if (remaining <= 0.0)
        return now;
    if (!(samplesPerSecond > 0.0))
        return std::nullopt;
    const Seconds toEta(remaining / samplesPerSecond);
    if (toEta > kFarthestEta)
        return std::nullopt;
    return now + std::chrono::duration_cast<TimePoint::duration>(toEta);
}

GlobalProgress ProgressAggregator::aggregate(const std::vector<PeerProgress>& records,
                                             std::uint64_t localEpoch, TimePoint now,
                                             const std::string& localPeerId) const {
    std::vector<const PeerProgress*> live;
    for (const PeerProgress& record : records) {
        if (isLive(record, now))
            live.push_back(&record);
    }

    GlobalProgress progress;
    progress.epoch = epochOf(live, localEpoch, localPeerId);
    progress.targetBatchSize = targetBatchSize_;
    progress.at = now;
    std::vector<const PeerProgress*> atEpoch;
    for (const PeerProgress* record : live) {
        ++progress.peers;
        progress.clients += record->clientMode ? 1 : 0;
        if (record->epoch == progress.epoch)
            atEpoch.push_back(record);
        else if (record->epoch > progress.epoch && record->peerId != localPeerId)
            progress.unfollowed.emplace_back(record->peerId, record->epoch);
    }

    progress.peersAtEpoch = static_cast<int>(atEpoch.size());

    // Each other peer's figures are bounded by the median contributor's (see the header).
    std::vector<double> rates;
    for (const PeerProgress* record : atEpoch)
        if (record->samplesPerSecond > 0.0)
            rates.push_back(record->samplesPerSecond);
    const std::optional<double> medianRate = lowerMedian(rates);
    const auto rateOf = [&](const PeerProgress& record) {
        if (record.peerId == localPeerId || !medianRate)
            return record.samplesPerSecond;
        return std::min(record.samplesPerSecond, kShareFactor * *medianRate);
    };
    const auto extrapolated = [&](const PeerProgress& record) {
        PeerProgress bounded = record;
        bounded.samplesPerSecond = rateOf(record);
        return samplesAt(bounded, now);
    };
    std::vector<double> samplesOf; // per record at the epoch, extrapolated at its bounded rate
    std::vector<double> contributions;
    for (const PeerProgress* record : atEpoch) {
        samplesOf.push_back(extrapolated(*record));
        if (record->samplesAccumulated > 0 || record->samplesPerSecond > 0.0)
            contributions.push_back(samplesOf.back());
    }
    const std::optional<double> medianSamples = lowerMedian(contributions);

    double claimedSamples = 0.0; // the records' own figures, unbounded (GlobalProgress::claimedEta)
    double claimedRate = 0.0;
    for (std::size_t i = 0; i < atEpoch.size(); ++i) {
        const PeerProgress* record = atEpoch[i];
        claimedSamples += samplesAt(*record, now);
        claimedRate += record->samplesPerSecond;
        double samples = samplesOf[i];
        std::uint64_t reported = record->samplesAccumulated;
        if (record->peerId != localPeerId && medianSamples) {
            const double most = kShareFactor * *medianSamples;
            samples = std::min(samples, most);
            reported = std::min(reported, static_cast<std::uint64_t>(most));
        }
        progress.samplesReported += reported;
        progress.samplesAccumulated += samples;
        progress.samplesPerSecond += rateOf(*record);
    }

    progress.eta = etaOf(progress.samplesAccumulated, progress.samplesPerSecond, now);
    progress.claimedEta = etaOf(claimedSamples, claimedRate, now);
    return progress;
}

} // namespace sahaj::collab
