#pragma once

#include "core/dht/RecordLookup.h"
#include "core/net/protocol.pb.h"

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

// One peer as it presents itself to the run: its role, where it accepts connections, the bandwidth it
// declares, whether it serves its state to newcomers and at which epoch.
struct PeerAnnouncement {
    std::string peerId; // 32 bytes: the record's signed owner
    wire::Role role = wire::ROLE_NODE;
    std::string endpoint;   // empty for clients
    std::string curveKey{}; // from its access token (empty in runs that admit anyone)
    double bandwidth = 0.0;
    bool stateDonor = false;
    std::uint64_t epoch = 0;
    std::string version;
    // The coordinator's token endpoint, where newcomers ask for an access token (empty for other peers);
    // trusted only from a record whose token has the coordinator role.
    std::string authEndpoint;
    bool coordinator = false; // its token has the coordinator role
    // ISO 3166 alpha-2 code the volunteer chose to share for the peer maps ("" when not shared). Signed
    // with the record, but only the volunteer's word: never used for anything but display.
    std::string country;
};

// Where the peers of a run announce themselves: one signed, expiring DHT record per peer under
// "sahaj/<run>/peers", its payload a wire::PeerRecord. Newcomers find state donors here. Records that do
// not decode, or whose endpoint or figures the protocol refuses, are dropped and counted.
class PeerBoard {
public:
    PeerBoard(dht::DhtNode& node, const QString& runId);

    void publish(const PeerAnnouncement& announcement, std::chrono::seconds ttl);
    // "" or two capital letters: the only countries a record may carry.
    static bool isCountryCode(const std::string& code);
    std::vector<PeerAnnouncement> fetch(std::chrono::milliseconds timeout);
    // The same without blocking (dht::RecordLookup): lookUp() starts a lookup unless one is under way,
    // takeLookedUp() hands over the peers it found once it has finished (nullopt before).
    void lookUp();
    std::optional<std::vector<PeerAnnouncement>> takeLookedUp();

    // Donors at `minEpoch` or later, best first: the coordinator (whose word settles a disagreement, so it
    // is always among those asked, StateDownloader), then the newest epoch, the widest link, the peer id.
    // The epochs are the donors' claims: what is downloaded is decided by StateVote, not by this order.
    static std::vector<PeerAnnouncement> donors(std::vector<PeerAnnouncement> peers, std::uint64_t minEpoch);

    static QByteArray encode(const PeerAnnouncement& announcement);
    static bool decode(const dht::DhtRecord& record, PeerAnnouncement& announcement);

    std::uint64_t rejectedRecords() const { return rejected_; }

    // What a lookUp() found by this long after it started is what it found (dht::RecordLookup), as with a
    // blocking fetch's timeout.
    static constexpr std::chrono::milliseconds kLookupDeadline{1500};

private:
    dht::DhtNode& node_;
    QString key_;
    std::uint64_t rejected_ = 0;
    dht::RecordLookup lookup_;
};

} // namespace sahaj::collab
