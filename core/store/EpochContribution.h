#pragma once

#include <QString>

namespace sahaj::store {

// This peer's part in one completed epoch (global step) of a run: one row of the contribution ledger.
struct EpochContribution {
    qint64 timeMs = 0; // when the epoch completed: ms since 1970-01-01T00:00Z
    QString runId;
    qint64 epoch = 0;            // the epoch the step reached
    qint64 samples = 0;          // samples this peer computed gradients on
    qint64 tokens = 0;           // tokens in those samples
    double computeSeconds = 0.0; // time spent computing them
    double batchShare = 0.0;     // this peer's samples as a fraction of the global batch, 0..1
    qint64 bytesSent = 0;        // while averaging
    qint64 bytesReceived = 0;
    int groupSize = 1; // peers in the averaging group, this one included
    QString role;      // "node", "client", "auxiliary"

    // Throws std::invalid_argument naming the first field out of its range: a negative or non-finite
    // figure, a share outside 0..1, a time outside 0..LedgerLimits::kMaxTimeMs, an empty or over-long
    // run id or role, a group smaller than 1.
    void validate() const;

    bool operator==(const EpochContribution&) const = default;
};

} // namespace sahaj::store
