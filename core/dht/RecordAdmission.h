#pragma once

#include "core/security/PeerId.h"

#include <QString>

namespace sahaj::dht {

// Who may publish in a run's DHT: owners whose records carry an access token for `runId`, signed by
// `organiser`, unexpired, and issued to the record's owner (RecordReader checks all of it). Readers and
// storing nodes apply the same rule, so a record from an unadmitted peer is neither read nor kept.
struct RecordAdmission {
    security::PeerId organiser;
    QString runId;
};

} // namespace sahaj::dht
