#include "core/collab/PeerBoard.h"

#include "core/collab/DecodedRecords.h"
#include "core/dht/DhtNode.h"
#include "core/dht/DhtRecord.h"
#include "core/net/LogText.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "core/net/WireLimits.h"

#include <algorithm>

namespace sahaj::collab {

PeerBoard::PeerBoard(dht::DhtNode& node, const QString& runId)
    : node_(node), key_(QStringLiteral("sahaj/%1/peers").arg(runId)), lookup_(node, key_, kLookupDeadline) {}

bool PeerBoard::isCountryCode(const std::string& code) {
    return code.empty() || (code.size() == 2 && std::all_of(code.begin(), code.end(),
                                                            [](char c) { return c >= 'A' && c <= 'Z'; }));
}

QByteArray PeerBoard::encode(const PeerAnnouncement& announcement) {
    wire::PeerRecord record;
    record.set_role(announcement.role);
    record.set_endpoint(announcement.endpoint);
    record.set_bandwidth(announcement.bandwidth);
    record.set_state_donor(announcement.stateDonor);
    record.set_epoch(announcement.epoch);
    record.set_version(announcement.version);
    record.set_auth_endpoint(announcement.authEndpoint);
    record.set_country(announcement.country);
    return QByteArray::fromStdString(record.SerializeAsString());
}

bool PeerBoard::decode(const dht::DhtRecord& record, PeerAnnouncement& announcement) {
    wire::PeerRecord wire;
    if (!wire.ParseFromArray(record.payload.constData(), static_cast<int>(record.payload.size())))
        return false;
    if (!wire::Role_IsValid(wire.role()) || wire.role() == wire::ROLE_UNSPECIFIED)
        return false;
    // plausibleBandwidth refuses NaN and infinities too: every comparison with them is false.
    if (!net::WireLimits::plausibleBandwidth(wire.bandwidth()) || wire.version().size() > 64)
        return false;
    if (!isCountryCode(wire.country()))
        return false;
    try {
        // A donor's endpoint is dialled by newcomers: the same rules as an endpoint in a message.
        net::MessageValidator::checkEndpoint(wire.endpoint(), "peer.endpoint", !wire.state_donor());
        net::MessageValidator::checkEndpoint(wire.auth_endpoint(), "peer.auth_endpoint", true);
    } catch (const net::ProtocolViolation&) {
        return false;
    }
    announcement.peerId = record.owner.bytes().toStdString();
    announcement.role = wire.role();
    announcement.endpoint = wire.endpoint();
    if (record.token) {
        announcement.curveKey = record.token->curvePublicKey().toStdString();
        announcement.coordinator = record.token->role() == security::AccessToken::Role::Coordinator;
    }
    announcement.authEndpoint = wire.auth_endpoint();
    announcement.bandwidth = wire.bandwidth();
    announcement.stateDonor = wire.state_donor();
    announcement.epoch = wire.epoch();
    // Shown to people (the peer list, logs): the peer chose it, so it is made safe to print.
    announcement.version = net::LogText::utf8(wire.version(), 64);
    announcement.country = wire.country();
    return true;
}

void PeerBoard::publish(const PeerAnnouncement& announcement, std::chrono::seconds ttl) {
    node_.put(key_, encode(announcement), ttl);
}

std::vector<PeerAnnouncement> PeerBoard::fetch(std::chrono::milliseconds timeout) {
    return decodedRecords<PeerAnnouncement>(node_, key_, timeout, &PeerBoard::decode, rejected_);
}

void PeerBoard::lookUp() {
    lookup_.start();
}

std::optional<std::vector<PeerAnnouncement>> PeerBoard::takeLookedUp() {
    return takeDecoded<PeerAnnouncement>(lookup_, &PeerBoard::decode, rejected_);
}

std::vector<PeerAnnouncement> PeerBoard::donors(std::vector<PeerAnnouncement> peers, std::uint64_t minEpoch) {
    std::erase_if(peers, [&](const PeerAnnouncement& peer) {
        return !peer.stateDonor || peer.endpoint.empty() || peer.epoch < minEpoch;
    });
    std::sort(peers.begin(), peers.end(), [](const PeerAnnouncement& a, const PeerAnnouncement& b) {
        if (a.coordinator != b.coordinator)
            return a.coordinator;
        if (a.epoch != b.epoch)
            return a.epoch > b.epoch;
        if (a.bandwidth != b.bandwidth)
            return a.bandwidth > b.bandwidth;
        return a.peerId < b.peerId;
    });
    return peers;
}

} // namespace sahaj::collab
