#include "core/collab/ProgressTracker.h"

#include "core/collab/PeerProgressRules.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace sahaj::collab {

namespace {

WallTimeMs toWallTimeMs(ProgressTracker::TimePoint time) {
    return std::chrono::floor<std::chrono::milliseconds>(time);
}

} // namespace

ProgressTracker::ProgressTracker(ProgressTrackerOptions options, std::uint64_t epoch)
    : options_(std::move(options)), aggregator_(options_.targetBatchSize, options_.maxExtrapolation),
      epoch_(epoch) {
    if (options_.peerId.size() != PeerProgressRules::kPeerIdSize)
        throw std::invalid_argument("progress: this peer's id has " + std::to_string(options_.peerId.size()) +
                                    " bytes, expected " + std::to_string(PeerProgressRules::kPeerIdSize));
    if (options_.recordTtl.count() <= 0 || options_.recordTtl > std::chrono::minutes(10))
        throw std::invalid_argument("progress: the record ttl must be between 1 ms and 10 minutes");
}

void ProgressTracker::reportLocal(std::uint64_t samplesAccumulated, double samplesPerSecond, TimePoint now) {
    PeerProgress figures = localRecord(now);
    figures.samplesAccumulated = samplesAccumulated;
    figures.samplesPerSecond = samplesPerSecond;
    if (const auto problem = PeerProgressRules::problemWith(figures))
        throw std::invalid_argument("progress: local figures refused: " + *problem);
    samples_ = samplesAccumulated;
    samplesPerSecond_ = samplesPerSecond;
    measuredAt_ = toWallTimeMs(now);
}

void ProgressTracker::onEpochCompleted(std::uint64_t newEpoch, TimePoint now) {
    if (newEpoch <= epoch_)
        throw std::invalid_argument("progress: cannot move from epoch " + std::to_string(epoch_) +
                                    " to epoch " + std::to_string(newEpoch) + "; epochs only increase");
    epoch_ = newEpoch;
    samples_ = 0;
    measuredAt_ = toWallTimeMs(now);
}

PeerProgress ProgressTracker::localRecord(TimePoint now) const {
    PeerProgress record;
    record.peerId = options_.peerId;
    record.epoch = epoch_;
    record.samplesAccumulated = samples_;
    record.samplesPerSecond = samplesPerSecond_;
    record.measuredAt = measuredAt_.value_or(toWallTimeMs(now));
    record.clientMode = options_.clientMode;
    record.expiresAt = toWallTimeMs(now) + options_.recordTtl;
    return record;
}

void ProgressTracker::update(const std::vector<PeerProgress>& records, TimePoint now) {
    // A reading may miss records: cut short at its deadline (ProgressBoard::kLookupDeadline), or not reaching
    // the nodes that hold them. Taken as the whole swarm, such readings showed late peers in the
    // 40-volunteer soak a batch half full when it was full (24 of 39 peers read), and they looked for a group
    // after the others had formed theirs. So a peer's newest record stays while a reading had it within
    // kUnseenGrace (and it is live), not only until the next reading that happens to miss it; no longer,
    // since a departing peer replaces its record by one that lives a second, which a reading may miss too.
    struct Held {
        PeerProgress record;
        TimePoint seen;
    };
    std::map<std::string, Held> newest;
    for (std::size_t i = 0; i < remote_.size(); ++i)
        if (remote_[i].expiresAt > now && now - seen_[i] <= kUnseenGrace) {
            std::string peerId = remote_[i].peerId; // the key, before the record moves
            newest.emplace(std::move(peerId), Held{std::move(remote_[i]), seen_[i]});
        }
    for (const PeerProgress& record : records) {
        if (PeerProgressRules::problemWith(record)) {
            ++rejected_;
            continue;
        }
        if (record.peerId == options_.peerId || record.expiresAt <= now)
            continue;
        const auto [held, added] = newest.try_emplace(record.peerId, Held{record, now});
        held->second.seen = now;
        if (!added && record.measuredAt > held->second.record.measuredAt)
            held->second.record = record;
    }
    std::vector<Held> kept;
    for (auto& [peerId, held] : newest)
        kept.push_back(std::move(held));
    // Bounded in count: peer ids cost an attacker nothing, and held records would otherwise grow with every
    // identity it rotates through. The newest measured stay.
    if (kept.size() > kMaxRemotePeers) {
        std::nth_element(
            kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(kMaxRemotePeers), kept.end(),
            [](const Held& a, const Held& b) { return a.record.measuredAt > b.record.measuredAt; });
        kept.resize(kMaxRemotePeers);
        std::sort(kept.begin(), kept.end(),
                  [](const Held& a, const Held& b) { return a.record.peerId < b.record.peerId; });
    }
    remote_.clear();
    seen_.clear();
    for (Held& held : kept) {
        remote_.push_back(std::move(held.record));
        seen_.push_back(held.seen);
    }
}

std::vector<std::string> ProgressTracker::peersAt(std::uint64_t epoch, TimePoint now) const {
    std::vector<std::string> peers;
    for (const PeerProgress& record : remote_)
        if (record.epoch == epoch && record.expiresAt > now)
            peers.push_back(record.peerId);
    return peers;
}

std::vector<std::string> ProgressTracker::peersAveraging(const std::string& groupId, std::uint64_t epoch,
                                                         TimePoint now) const {
    std::vector<std::string> peers;
    if (groupId.empty())
        return peers; // no group: nobody, not every record that names none
    for (const PeerProgress& record : remote_)
        if (record.epoch == epoch && record.expiresAt > now && record.averagingGroup == groupId)
            peers.push_back(record.peerId);
    return peers;
}

GlobalProgress ProgressTracker::globalProgress(TimePoint now) const {
    std::vector<PeerProgress> records = remote_;
    records.push_back(localRecord(now));
    return aggregator_.aggregate(records, epoch_, now, options_.peerId);
}

bool ProgressTracker::readyToEndEpoch(TimePoint now) const {
    return globalProgress(now).readyToEndEpoch(epoch_, now);
}

bool ProgressTracker::shouldStartMatchmaking(TimePoint now, std::chrono::milliseconds lead) const {
    const GlobalProgress progress = globalProgress(now);
    // The claimed figures: a fast peer counts for what it computes, not twice the median's (GlobalProgress).
    const std::optional<TimePoint>& eta = progress.claimedEta;
    return progress.readyToEndEpoch(epoch_, now) || (eta && *eta - now <= lead);
}

} // namespace sahaj::collab
