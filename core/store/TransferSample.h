#pragma once

#include <QtGlobal>

namespace sahaj::store {

// Bytes this peer moved during one interval (a minute): a point of the bandwidth panel's speed graph.
struct TransferSample {
    qint64 timeMs = 0; // start of the interval: ms since 1970-01-01T00:00Z
    qint64 upBytes = 0;
    qint64 downBytes = 0;

    // Throws std::invalid_argument on a time outside 0..LedgerLimits::kMaxTimeMs or a negative count.
    void validate() const;

    bool operator==(const TransferSample&) const = default;
};

} // namespace sahaj::store
