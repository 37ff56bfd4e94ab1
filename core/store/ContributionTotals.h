#pragma once

#include <QtGlobal>

namespace sahaj::store {

// The sums of the epoch contributions over a period, for the contribution panel's figures.
struct ContributionTotals {
    qint64 epochsJoined = 0;
    qint64 samples = 0;
    qint64 tokens = 0;
    double computeHours = 0.0;
    qint64 bytesSent = 0; // while averaging, as the epochs recorded them
    qint64 bytesReceived = 0;

    bool operator==(const ContributionTotals&) const = default;
};

} // namespace sahaj::store
