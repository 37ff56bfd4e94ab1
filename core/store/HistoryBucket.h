#pragma once

#include <QtGlobal>

namespace sahaj::store {

// The epoch contributions of one local hour or day, a bar of the history charts. Buckets without an
// epoch exist too, with zeros, so that a chart shows the gaps.
struct HistoryBucket {
    enum class Size { Hour, Day };

    qint64 startMs = 0; // [startMs, endMs): ms since 1970-01-01T00:00Z. A day is 23 or 25 hours long
    qint64 endMs = 0;   // where daylight saving time begins or ends.
    qint64 epochs = 0;
    qint64 samples = 0;
    qint64 tokens = 0;
    double computeHours = 0.0;

    bool operator==(const HistoryBucket&) const = default;
};

} // namespace sahaj::store
