#pragma once

#include "core/dht/RecordLookup.h"
#include "core/security/PeerId.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <optional>
#include <set>

namespace sahaj::collab {

// Where the run's coordinator publishes the peers the organiser revoked: one signed, expiring record under
// "sahaj/<run>/revocations", its payload a wire::RevocationRecord. Only a record whose access token has the
// coordinator role counts: the organiser issues that role to its coordinator alone, so no volunteer can
// revoke anyone, nor un-revoke itself by publishing an empty list. Records that do not decode are dropped.
//
// Lookups do not block the caller (dht::RecordLookup): fetchAsync() starts one on the DHT's thread,
// takeFetched() collects what it found.
class RevocationBoard {
public:
    // What a lookup found by this long after it started is what it found (dht::RecordLookup).
    static constexpr std::chrono::seconds kLookupDeadline{5};

    RevocationBoard(dht::DhtNode& node, const QString& runId);

    void publish(const std::set<security::PeerId>& revoked, std::chrono::seconds ttl);
    // Starts a lookup of the coordinator's record, unless one is under way.
    void fetchAsync();
    // The list in the coordinator's newest live record, as the last lookup found it (when it finished, or
    // kLookupDeadline after it started); nullopt before that, once it was handed over, or when it found
    // no such record.
    std::optional<std::set<security::PeerId>> takeFetched();

    static QByteArray encode(const std::set<security::PeerId>& revoked);
    // False for a record that is not the coordinator's, or whose payload is not a valid list.
    static bool decode(const dht::DhtRecord& record, std::set<security::PeerId>& revoked);

private:
    dht::DhtNode& node_;
    QString key_;
    dht::RecordLookup lookup_;
};

} // namespace sahaj::collab
