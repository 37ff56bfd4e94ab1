#include "core/collab/MatchmakingBoard.h"

#include "core/dht/DhtNode.h"
#include "core/dht/DhtRecord.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/protocol.pb.h"

#include <algorithm>

namespace sahaj::collab {

MatchmakingBoard::MatchmakingBoard(dht::DhtNode& node, const QString& runId) : node_(node), runId_(runId) {}

QString MatchmakingBoard::keyFor(std::uint64_t epoch) const {
    return QStringLiteral("sahaj/%1/matchmaking/%2").arg(runId_).arg(epoch);
}

std::uint64_t MatchmakingBoard::nowMs() const {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(node_.now().time_since_epoch()).count());
}

QByteArray MatchmakingBoard::encode(std::uint64_t epoch, const std::string& endpoint,
                                    const std::string& schemaHash, std::uint64_t expirationMs) {
    wire::Declaration declaration;
    declaration.set_epoch(epoch);
    declaration.set_endpoint(endpoint);
    declaration.set_schema_hash(schemaHash);
    declaration.set_expiration_ms(expirationMs);
    return QByteArray::fromStdString(declaration.SerializeAsString());
}

bool MatchmakingBoard::decode(const dht::DhtRecord& record, std::uint64_t& epoch, std::string& schemaHash,
                              LeaderCandidate& candidate) {
    wire::Declaration declaration;
    if (!declaration.ParseFromArray(record.payload.constData(), static_cast<int>(record.payload.size())))
        return false;
    try {
        // Peers will connect to this endpoint: the same rules as an endpoint in a message.
        net::MessageValidator::checkEndpoint(declaration.endpoint(), "declaration.endpoint", false);
    } catch (const net::ProtocolViolation&) {
        return false;
    }
    epoch = declaration.epoch();
    schemaHash = declaration.schema_hash();
    candidate.peerId = record.owner.bytes().toStdString();
    candidate.endpoint = declaration.endpoint();
    if (record.token)
        candidate.curveKey = record.token->curvePublicKey().toStdString();
    candidate.expirationMs = declaration.expiration_ms();
    return true;
}

void MatchmakingBoard::declare(std::uint64_t epoch, const std::string& endpoint,
                               const std::string& schemaHash, std::uint64_t expirationMs,
                               std::chrono::seconds ttl) {
    node_.put(keyFor(epoch), encode(epoch, endpoint, schemaHash, expirationMs), ttl);
}

void MatchmakingBoard::lookUp(std::uint64_t epoch, std::chrono::milliseconds deadline) {
    if (!lookup_ || lookupEpoch_ != epoch) {
        lookup_.emplace(node_, keyFor(epoch), deadline);
        lookupEpoch_ = epoch;
    }
    lookup_->start();
}

std::optional<std::vector<LeaderCandidate>> MatchmakingBoard::takeLookedUp(const std::string& schemaHash) {
    if (!lookup_)
        return std::nullopt;
    const std::optional<std::vector<dht::DhtRecord>> records = lookup_->take();
    if (!records)
        return std::nullopt;
    std::vector<LeaderCandidate> found;
    for (const dht::DhtRecord& record : *records) {
        LeaderCandidate candidate;
        std::uint64_t declaredEpoch = 0;
        std::string declaredSchema;
        if (!decode(record, declaredEpoch, declaredSchema, candidate)) {
            ++rejected_;
            continue;
        }
        if (declaredEpoch == lookupEpoch_ && declaredSchema == schemaHash)
            found.push_back(std::move(candidate));
    }
    std::sort(found.begin(), found.end(),
              [](const LeaderCandidate& a, const LeaderCandidate& b) { return a.betterThan(b); });
    return found;
}

} // namespace sahaj::collab
