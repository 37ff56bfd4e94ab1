#pragma once

#include "core/collab/PeerProgress.h"
#include "core/dht/RecordLookup.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace sahaj::collab {

// Where the peers of a run post their progress: one signed, expiring DHT record per peer under
// "sahaj/<run>/progress", its payload a wire::ProgressRecord. The record's owner (checked by the DHT
// layer against its signature) is the peer id, so nobody can post progress in another peer's name, and
// the record's expiry is the DHT record's. Records that do not decode, or whose figures break
// PeerProgressRules, are dropped and counted.
class ProgressBoard {
public:
    // The node must have an identity to publish (DhtNode::put); any node can fetch.
    ProgressBoard(dht::DhtNode& node, const QString& runId);

    // Posts this peer's figures, replacing its previous record; readers see it for `ttl`.
    void publish(const PeerProgress& progress, std::chrono::seconds ttl);
    // Every live, valid record (this peer's own included), waiting at most `timeout` for the lookup.
    std::vector<PeerProgress> fetch(std::chrono::milliseconds timeout);
    // The same without blocking (dht::RecordLookup): lookUp() starts a lookup unless one is under way,
    // takeLookedUp() hands over the records it found once it has finished or kLookupDeadline has passed
    // (nullopt before, and after it handed them over).
    void lookUp();
    std::optional<std::vector<PeerProgress>> takeLookedUp();
    bool lookingUp() const { return lookup_.underWay(); }
    static constexpr std::chrono::milliseconds kLookupDeadline{1500};

    // The record's payload, and the inverse (nullopt-like failure through the bool) for a DHT record.
    static QByteArray encode(const PeerProgress& progress);
    static bool decode(const dht::DhtRecord& record, PeerProgress& progress);

    std::uint64_t rejectedRecords() const { return rejected_; }
    const QString& key() const { return key_; }

private:
    dht::DhtNode& node_;
    QString key_;
    std::uint64_t rejected_ = 0;
    dht::RecordLookup lookup_;
};

} // namespace sahaj::collab
