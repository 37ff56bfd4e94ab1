#include "core/store/BucketCalendar.h"

#include "core/store/LedgerLimits.h"

#include <QDateTime>

#include <stdexcept>

namespace sahaj::store {

namespace {

constexpr qint64 kHourMs = 3600 * 1000;

[[noreturn]] void refuseBuckets(const QString& problem) {
    throw std::invalid_argument(QStringLiteral("history buckets refused: %1").arg(problem).toStdString());
}

qint64 offsetMs(qint64 timeMs, const QTimeZone& zone) {
    return qint64{zone.offsetFromUtc(QDateTime::fromMSecsSinceEpoch(timeMs, QTimeZone::utc()))} * 1000;
}

qint64 floorToMultiple(qint64 value, qint64 step) {
    const qint64 remainder = value % step;
    return remainder < 0 ? value - remainder - step : value - remainder;
}

} // namespace

qint64 BucketCalendar::startOfDay(qint64 timeMs, const QTimeZone& zone) {
    // QDate::startOfDay finds the day's first valid instant, also where midnight falls in a DST gap.
    return QDateTime::fromMSecsSinceEpoch(timeMs, zone).date().startOfDay(zone).toMSecsSinceEpoch();
}

qint64 BucketCalendar::startOfHour(qint64 timeMs, const QTimeZone& zone) {
    // Local hours begin where local time is a whole hour; offsets such as +05:30 move them off UTC's.
    const qint64 offset = offsetMs(timeMs, zone);
    return floorToMultiple(timeMs + offset, kHourMs) - offset;
}

std::vector<qint64> BucketCalendar::edges(qint64 fromMs, qint64 toMs, HistoryBucket::Size size,
                                          const QTimeZone& zone) {
    if (!zone.isValid())
        refuseBuckets(QStringLiteral("the time zone is not valid"));
    if (fromMs < 0 || toMs > LedgerLimits::kMaxTimeMs)
        refuseBuckets(QStringLiteral("the range %1..%2 ms is outside 0..%3")
                          .arg(fromMs)
                          .arg(toMs)
                          .arg(LedgerLimits::kMaxTimeMs));
    if (fromMs > toMs)
        refuseBuckets(QStringLiteral("the range starts (%1 ms) after it ends (%2 ms)").arg(fromMs).arg(toMs));
    if (fromMs == toMs)
        return {};
    std::vector<qint64> edges;
    qint64 edge = size == HistoryBucket::Size::Day ? startOfDay(fromMs, zone) : startOfHour(fromMs, zone);
    edges.push_back(edge);
    while (edge < toMs) {
        qint64 next = 0;
        if (size == HistoryBucket::Size::Day) {
            const QDate day = QDateTime::fromMSecsSinceEpoch(edge, zone).date();
            next = day.addDays(1).startOfDay(zone).toMSecsSinceEpoch();
        } else {
            next = startOfHour(edge + kHourMs, zone);
        }
        // A change of offset could fold the next edge back onto this one; never walk backwards.
        if (next <= edge)
            next = edge + kHourMs;
        edge = next;
        edges.push_back(edge);
        if (static_cast<qsizetype>(edges.size()) - 1 > kMaxBuckets)
            refuseBuckets(QStringLiteral("the range %1..%2 ms holds more than %3 buckets")
                              .arg(fromMs)
                              .arg(toMs)
                              .arg(kMaxBuckets));
    }
    return edges;
}

} // namespace sahaj::store
