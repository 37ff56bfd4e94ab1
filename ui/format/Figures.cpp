#include "ui/format/Figures.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace sahaj::ui {

namespace {

QString scaled(double value, const char* const units[], int unitCount, double step, const QString& suffix) {
    int unit = 0;
    while (std::abs(value) >= step && unit + 1 < unitCount) {
        value /= step;
        ++unit;
    }
    const int decimals = unit == 0 || std::abs(value) >= 100 ? 0 : 1;
    return QLocale().toString(value, 'f', decimals) + QChar(0x00A0) + QString::fromLatin1(units[unit]) +
           suffix;
}

} // namespace

QString Figures::bytes(double bytes) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB"};
    if (!std::isfinite(bytes))
        return QStringLiteral("—");
    return scaled(bytes, units, 5, 1000.0, QString());
}

QString Figures::rate(double bytesPerSecond) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB"};
    if (!std::isfinite(bytesPerSecond))
        return QStringLiteral("—");
    return scaled(bytesPerSecond, units, 5, 1000.0, QStringLiteral("/s"));
}

QString Figures::mbps(double megabitsPerSecond) {
    if (!std::isfinite(megabitsPerSecond))
        return QStringLiteral("—");
    return tr("%1 Mbit/s").arg(QLocale().toString(megabitsPerSecond, 'f', megabitsPerSecond < 10 ? 1 : 0));
}

QString Figures::duration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("—");
    const auto total = static_cast<qint64>(std::llround(seconds));
    const QLocale locale;
    if (total < 60)
        return tr("%1 s").arg(locale.toString(total));
    if (total < 3600)
        return tr("%1 min %2 s")
            .arg(locale.toString(total / 60))
            .arg(locale.toString(total % 60).rightJustified(2, locale.zeroDigit().front()));
    if (total < 48 * 3600)
        return tr("%1 h %2 min").arg(locale.toString(total / 3600)).arg(locale.toString((total % 3600) / 60));
    return tr("%1 d %2 h").arg(locale.toString(total / 86400)).arg(locale.toString((total % 86400) / 3600));
}

QString Figures::count(double value) {
    if (!std::isfinite(value))
        return QStringLiteral("—");
    return QLocale().toString(static_cast<qint64>(std::llround(value)));
}

QString Figures::decimal(double value, int decimals) {
    if (!std::isfinite(value))
        return QStringLiteral("—");
    return QLocale().toString(value, 'f', decimals);
}

QString Figures::milliseconds(double ms) {
    if (!std::isfinite(ms) || ms < 0)
        return QStringLiteral("—");
    return QLocale().toString(ms, 'f', ms < 1.0 ? 2 : ms < 10.0 ? 1 : 0);
}

QString Figures::percent(double fraction) {
    if (!std::isfinite(fraction))
        return QStringLiteral("—");
    return tr("%1 %").arg(QLocale().toString(fraction * 100.0, 'f', 1));
}

QString Figures::clock(const QTime& time) {
    const QLocale locale;
    const QString am = locale.amText();
    const bool latinMarkers = std::all_of(am.begin(), am.end(), [](QChar c) { return c.unicode() < 0x80; });
    if (locale.language() != QLocale::English && latinMarkers &&
        locale.timeFormat(QLocale::ShortFormat).contains(QLatin1Char('a'), Qt::CaseInsensitive))
        return locale.toString(time, QStringLiteral("HH:mm"));
    return locale.toString(time, QLocale::ShortFormat);
}

QString Figures::dateAndClock(const QDateTime& dateTime) {
    return QLocale().toString(dateTime.date(), QLocale::ShortFormat) + QLatin1Char(' ') +
           clock(dateTime.time());
}

QString Figures::shortPeerId(const QString& peerIdHex) {
    return peerIdHex.size() <= 8 ? peerIdHex : peerIdHex.left(8) + QChar(0x2026);
}

} // namespace sahaj::ui
