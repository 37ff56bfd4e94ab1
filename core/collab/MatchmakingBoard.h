#pragma once

#include "core/collab/LeaderCandidate.h"
#include "core/dht/RecordLookup.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::dht {
class DhtNode;
struct DhtRecord;
} // namespace sahaj::dht

namespace sahaj::collab {

// Where the peers of a run that accept connections declare themselves possible leaders for an epoch: one
// signed, expiring DHT record per peer under "sahaj/<run>/matchmaking/<epoch>", its payload a
// wire::Declaration. The record's owner (signed) is the candidate's peer id. Records that do not decode or
// name an endpoint the protocol refuses are dropped and counted.
class MatchmakingBoard {
public:
    MatchmakingBoard(dht::DhtNode& node, const QString& runId);

    // Publishes this peer's declaration for `epoch`, replacing its previous one; readers see it for `ttl`.
    void declare(std::uint64_t epoch, const std::string& endpoint, const std::string& schemaHash,
                 std::uint64_t expirationMs, std::chrono::seconds ttl);
    // Reads the declarations without blocking (dht::RecordLookup), for a step of an event loop: lookUp()
    // starts reading `epoch`'s unless a read of them is under way (a read of another epoch's is dropped);
    // takeLookedUp() hands over the candidates that declared for that epoch with `schemaHash`, best first
    // (LeaderCandidate::betterThan), once the read has finished or `deadline` has passed (nullopt before,
    // and after it handed them over). Expired declarations too, whose records outlive them by seconds: a
    // peer that follows a leader bounds its wait by the leader's declared expiration.
    void lookUp(std::uint64_t epoch, std::chrono::milliseconds deadline);
    std::optional<std::vector<LeaderCandidate>> takeLookedUp(const std::string& schemaHash);
    bool lookingUp() const { return lookup_ && lookup_->underWay(); }

    // The record's payload, and its inverse (false for a malformed declaration).
    static QByteArray encode(std::uint64_t epoch, const std::string& endpoint, const std::string& schemaHash,
                             std::uint64_t expirationMs);
    static bool decode(const dht::DhtRecord& record, std::uint64_t& epoch, std::string& schemaHash,
                       LeaderCandidate& candidate);

    QString keyFor(std::uint64_t epoch) const;
    // The run's time (DhtNode::now) in ms since the epoch: what declarations' expirations are read against.
    std::uint64_t nowMs() const;
    std::uint64_t rejectedRecords() const { return rejected_; }

private:
    dht::DhtNode& node_;
    QString runId_;
    std::uint64_t rejected_ = 0;
    std::optional<dht::RecordLookup> lookup_;
    std::uint64_t lookupEpoch_ = 0;
};

} // namespace sahaj::collab
