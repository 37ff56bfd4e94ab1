#include "core/collab/ProgressAggregator.h"

#include "core/collab/PeerProgress.h"
#include "core/collab/PeerProgressRules.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::collab {

namespace {

using Seconds = std::chrono::duration<double>;

bool isLive(const PeerProgress& record, ProgressAggregator::TimePoint now) {
    return record.expiresAt > now && !PeerProgressRules::problemWith(record);
}

std::uint64_t epochOf(const std::vector<const PeerProgress*>& live, std::uint64_t localEpoch) {
    if (live.empty())
        return localEpoch;
    const bool anyNode = std::any_of(live.begin(), live.end(), [](auto* r) { return !r->clientMode; });
    std::uint64_t epoch = 0;
    for (const PeerProgress* record : live) {
        if (!anyNode || !record->clientMode)
            epoch = std::max(epoch, record->epoch);
    }
    return epoch;
}

} // namespace

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

GlobalProgress ProgressAggregator::aggregate(const std::vector<PeerProgress>& records,
                                             std::uint64_t localEpoch, TimePoint now) const {
    std::vector<const PeerProgress*> live;
    for (const PeerProgress& record : records) {
        if (isLive(record, now))
            live.push_back(&record);
    }

    GlobalProgress progress;
    progress.epoch = epochOf(live, localEpoch);
    progress.targetBatchSize = targetBatchSize_;
    progress.at = now;
    for (const PeerProgress* record : live) {
        ++progress.peers;
        progress.clients += record->clientMode ? 1 : 0;
        if (record->epoch != progress.epoch)
            continue;
        progress.samplesReported += record->samplesAccumulated;
        progress.samplesAccumulated += samplesAt(*record, now);
        progress.samplesPerSecond += record->samplesPerSecond;
    }

    const double remaining = static_cast<double>(targetBatchSize_) - progress.samplesAccumulated;
    if (remaining <= 0.0) {
        progress.eta = now;
    } else if (progress.samplesPerSecond > 0.0) {
        const Seconds toEta(remaining / progress.samplesPerSecond);
        if (toEta <= kFarthestEta)
            progress.eta = now + std::chrono::duration_cast<TimePoint::duration>(toEta);
    }
    return progress;
}

} // namespace sahaj::collab
