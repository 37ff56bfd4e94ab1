#pragma once

#include "core/collab/GroupSpec.h"
#include "core/net/protocol.pb.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::security {
class PeerIdentity;
class Sha256;
} // namespace sahaj::security

namespace sahaj::collab {

// An aggregator's seal on the averages of its span (wire::SpanSeal, docs/protocol.md "Sealed averages"):
// its Ed25519 signature over the run, the group, the epoch, the span, its own id and the SHA-256 of the
// span's averaged values, and the weight each member's parts counted for in them (what an auditor recomputes
// a part's mean with: PartAudit). Members take a span only when the values they received hash to its seal,
// and pass the seals on: two valid seals of one span that differ are a proof, which anyone holding the
// aggregator's id can check, that it sent members different averages.
class SpanSeals {
public:
    // Adds `count` values to `hash` as the seal hashes them: float32, little-endian (the byte order of
    // every machine Sahaj builds for, so the values' own bytes).
    static void addValues(security::Sha256& hash, const float* values, std::size_t count);

    // The bytes the aggregator signs: a label, the run id and every field of `seal` but the signature.
    static QByteArray signedText(const std::string& runId, const wire::SpanSeal& seal);

    // The seal of span `span` of `spec` whose values hash to `valuesSha256`, made of the members' parts
    // counted for `countedWeights` (per member, -1: none), signed by `identity` (the span's aggregator).
    static wire::SpanSeal make(const std::string& runId, const GroupSpec& spec, std::uint32_t span,
                               const QByteArray& valuesSha256, const std::vector<double>& countedWeights,
                               const security::PeerIdentity& identity);

    // Why `seal` is not a valid seal of a span of `spec` in run `runId` (another group or epoch, a span
    // out of range, an aggregator other than the span's member, counted weights not one per member, a
    // signature that does not verify), or
    // empty when it is one.
    static std::string problemWith(const std::string& runId, const GroupSpec& spec,
                                   const wire::SpanSeal& seal);
};

} // namespace sahaj::collab
