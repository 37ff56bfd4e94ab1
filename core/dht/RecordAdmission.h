#pragma once

#include "core/security/PeerId.h"
#include "core/security/RevokedPeers.h"

#include <QString>

#include <memory>

namespace sahaj::dht {

// Who may publish in a run's DHT: owners whose records carry an access token for `runId`, signed by
// `organiser`, unexpired, and issued to the record's owner (RecordReader checks all of it). Readers and
// storing nodes apply the same rule, so a record from an unadmitted peer is neither read nor kept. Nor is
// one from a peer the organiser revoked, once this peer knows of it (`revoked`, shared with the
// collaboration thread that learns the revocations; null: none).
struct RecordAdmission {
    security::PeerId organiser;
    QString runId;
    std::shared_ptr<const security::RevokedPeers> revoked = nullptr;
};

} // namespace sahaj::dht
