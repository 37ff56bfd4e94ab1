#pragma once

#include <QtGlobal>

namespace sahaj::store {

// The sums of the transfer samples over a period: today's transfer against the quota, for one.
struct TransferTotals {
    qint64 upBytes = 0;
    qint64 downBytes = 0;

    bool operator==(const TransferTotals&) const = default;
};

} // namespace sahaj::store
