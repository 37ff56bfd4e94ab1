#include "core/collab/RevocationBoard.h"

#include "core/dht/DhtNode.h"
#include "core/dht/DhtRecord.h"
#include "core/net/protocol.pb.h"
#include "core/security/AccessToken.h"
#include "core/security/RevocationFile.h"

#include <utility>
#include <vector>

namespace sahaj::collab {

RevocationBoard::RevocationBoard(dht::DhtNode& node, const QString& runId)
    : node_(node), key_(QStringLiteral("sahaj/%1/revocations").arg(runId)),
      lookup_(node, key_, kLookupDeadline) {}

QByteArray RevocationBoard::encode(const std::set<security::PeerId>& revoked) {
    wire::RevocationRecord record;
    for (const security::PeerId& peer : revoked)
        record.add_peer_ids(peer.bytes().toStdString());
    return QByteArray::fromStdString(record.SerializeAsString());
}

bool RevocationBoard::decode(const dht::DhtRecord& record, std::set<security::PeerId>& revoked) {
    if (!record.token || record.token->role() != security::AccessToken::Role::Coordinator)
        return false;
    wire::RevocationRecord message;
    if (!message.ParseFromArray(record.payload.constData(), static_cast<int>(record.payload.size())) ||
        message.peer_ids_size() > security::RevocationFile::kMaxPeers)
        return false;
    std::set<security::PeerId> peers;
    for (const std::string& id : message.peer_ids()) {
        if (id.size() != static_cast<std::size_t>(security::PeerId::kSize))
            return false;
        if (!peers.insert(security::PeerId::fromBytes(QByteArrayView(id.data(), qsizetype(id.size()))))
                 .second)
            return false;
    }
    revoked = std::move(peers);
    return true;
}

void RevocationBoard::publish(const std::set<security::PeerId>& revoked, std::chrono::seconds ttl) {
    node_.put(key_, encode(revoked), ttl);
}

void RevocationBoard::fetchAsync() {
    lookup_.start();
}

std::optional<std::set<security::PeerId>> RevocationBoard::takeFetched() {
    const std::optional<std::vector<dht::DhtRecord>> records = lookup_.take();
    if (!records)
        return std::nullopt;
    std::optional<std::set<security::PeerId>> newest;
    std::chrono::system_clock::time_point newestIssued{};
    for (const dht::DhtRecord& record : *records) {
        std::set<security::PeerId> revoked;
        if (decode(record, revoked) && (!newest || record.issuedAt > newestIssued)) {
            newest = std::move(revoked);
            newestIssued = record.issuedAt;
        }
    }
    return newest;
}

} // namespace sahaj::collab
