#include "core/collab/ProgressBoard.h"

#include "core/collab/DecodedRecords.h"
#include "core/collab/PeerProgressRules.h"
#include "core/dht/DhtNode.h"
#include "core/dht/DhtRecord.h"
#include "core/net/protocol.pb.h"

#include <cstdint>

namespace sahaj::collab {

ProgressBoard::ProgressBoard(dht::DhtNode& node, const QString& runId)
    : node_(node), key_(QStringLiteral("sahaj/%1/progress").arg(runId)),
      lookup_(node, key_, kLookupDeadline) {}

QByteArray ProgressBoard::encode(const PeerProgress& progress) {
    wire::ProgressRecord record;
    record.set_epoch(progress.epoch);
    record.set_samples_accumulated(progress.samplesAccumulated);
    record.set_samples_per_second(progress.samplesPerSecond);
    record.set_time_ms(static_cast<std::uint64_t>(progress.measuredAt.time_since_epoch().count()));
    record.set_role(progress.clientMode ? wire::ROLE_CLIENT : wire::ROLE_NODE);
    record.set_client_mode(progress.clientMode);
    record.set_averaging_group(progress.averagingGroup);
    return QByteArray::fromStdString(record.SerializeAsString());
}

bool ProgressBoard::decode(const dht::DhtRecord& record, PeerProgress& progress) {
    wire::ProgressRecord wire;
    if (!wire.ParseFromArray(record.payload.constData(), static_cast<int>(record.payload.size())))
        return false;
    // The time comes from the publisher's clock, as does the envelope's signed issue time, which the DHT
    // layer already held to the reader's clock (RecordRules): one that does not fit the other is refused.
    if (PeerProgressRules::timeProblem(wire.time_ms(), record.issuedAt))
        return false;
    progress.peerId = record.owner.bytes().toStdString();
    progress.epoch = wire.epoch();
    progress.samplesAccumulated = wire.samples_accumulated();
    progress.samplesPerSecond = wire.samples_per_second();
    progress.measuredAt = WallTimeMs(std::chrono::milliseconds(static_cast<std::int64_t>(wire.time_ms())));
    progress.clientMode = wire.client_mode();
    progress.averagingGroup = wire.averaging_group();
    // Only the organiser grants the coordinator role: its epoch is the one record every reader may follow
    // alone (ProgressAggregator).
    progress.coordinator = record.token && record.token->role() == security::AccessToken::Role::Coordinator;
    progress.expiresAt = std::chrono::time_point_cast<std::chrono::milliseconds>(record.expiresAt);
    return !PeerProgressRules::problemWith(progress);
}

void ProgressBoard::publish(const PeerProgress& progress, std::chrono::seconds ttl) {
    node_.put(key_, encode(progress), ttl);
}

std::vector<PeerProgress> ProgressBoard::fetch(std::chrono::milliseconds timeout) {
    return decodedRecords<PeerProgress>(node_, key_, timeout, &ProgressBoard::decode, rejected_);
}

void ProgressBoard::lookUp() {
    lookup_.start();
}

std::optional<std::vector<PeerProgress>> ProgressBoard::takeLookedUp() {
    return takeDecoded<PeerProgress>(lookup_, &ProgressBoard::decode, rejected_);
}

} // namespace sahaj::collab
