#pragma once

#include "core/net/protocol.pb.h"

#include <QByteArray>

#include <string>

namespace zmq {
class message_t;
} // namespace zmq

namespace sahaj::security {
class PeerIdentity;
} // namespace sahaj::security

namespace sahaj::collab {

// A member's signature on each part it sends under sealing (wire::TensorPart.signature, docs/protocol.md
// "Audited averages"): Ed25519 over the run, the sender's id, the part's header and weight, and the SHA-256
// of its data frame. An aggregator keeps the signed parts its mean is made of, so that an auditor can
// recompute the mean from inputs that their senders, not the aggregator, vouch for.
class PartSignatures {
public:
    // The bytes the sender signs: a label, the run id, the sender's id, every field of `part` but the
    // signature, and the data frame's SHA-256.
    static QByteArray signedText(const std::string& runId, const std::string& senderId,
                                 const wire::TensorPart& part, const zmq::message_t& data);

    // Signs `part` (with `data` as its data frame) as `identity`.
    static void sign(const std::string& runId, const security::PeerIdentity& identity, wire::TensorPart& part,
                     const zmq::message_t& data);

    // Why `part` with `data` is not signed by `senderId` in run `runId` (no signature, or one that does not
    // verify), or empty when it is.
    static std::string problemWith(const std::string& runId, const std::string& senderId,
                                   const wire::TensorPart& part, const zmq::message_t& data);
};

} // namespace sahaj::collab
