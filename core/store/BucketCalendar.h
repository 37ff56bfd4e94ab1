#pragma once

#include "core/store/HistoryBucket.h"

#include <QTimeZone>

#include <vector>

namespace sahaj::store {

// Where local hours and days begin, in a given time zone: the edges of the history charts' buckets and
// the start of "today" for the transfer quota. The zone is a parameter, not the machine's, so that the
// same data gives the same buckets everywhere (tests use fixed UTC offsets).
class BucketCalendar {
public:
    // More buckets than this in one query is a mistake of the caller (eleven years of hours).
    static constexpr qsizetype kMaxBuckets = 100000;

    // The first instant of the local day that holds `timeMs` (midnight, or the first instant after it
    // where a daylight saving change skips midnight).
    static qint64 startOfDay(qint64 timeMs, const QTimeZone& zone);
    // The first instant of the local hour that holds `timeMs`.
    static qint64 startOfHour(qint64 timeMs, const QTimeZone& zone);

    // The edges b0 < b1 < ... < bn of the buckets that overlap [fromMs, toMs): b0 <= fromMs and
    // bn >= toMs; empty when fromMs == toMs. Throws std::invalid_argument on an invalid zone, times
    // outside 0..LedgerLimits::kMaxTimeMs, fromMs after toMs, or more than kMaxBuckets buckets.
    static std::vector<qint64> edges(qint64 fromMs, qint64 toMs, HistoryBucket::Size size,
                                     const QTimeZone& zone);
};

} // namespace sahaj::store
