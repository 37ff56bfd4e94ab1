#pragma once

#include "core/net/protocol.pb.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sahaj::collab {

// The seals of one round that a member holds (SpanSeals: each already checked), one per span: the first
// that came, its own, or one a member passed on. A second seal of a span whose hash differs is the proof
// that the span's aggregator sent members different averages. Memory: one seal per span of the group.
class SealLedger {
public:
    explicit SealLedger(std::size_t spans) : seals_(spans) {}

    // Keeps `seal` when its span has none yet. When it has one with another hash: the proof, as a line
    // for the log that names the aggregator and both hashes; empty otherwise. The span must be in range.
    std::string record(const wire::SpanSeal& seal);

    // The seals held, in span order.
    std::vector<wire::SpanSeal> all() const;

private:
    std::vector<std::optional<wire::SpanSeal>> seals_;
};

} // namespace sahaj::collab
