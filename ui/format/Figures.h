#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QString>
#include <QTime>

namespace sahaj::ui {

// How every panel words a figure, in the user's language and locale (digits included: Bengali shows
// Bengali digits). One place, so the panels, the tray and the log agree.
class Figures {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::Figures)

public:
    static QString bytes(double bytes);                 // "812 MB", "1.2 GB" (decimal units)
    static QString rate(double bytesPerSecond);         // "1.5 MB/s"
    static QString mbps(double megabitsPerSecond);      // "95 Mbit/s"
    static QString duration(double seconds);            // "37 s", "4 min 05 s", "2 h 10 min"; "—" when < 0
    static QString count(double value);                 // "1,536" with the locale's grouping
    static QString decimal(double value, int decimals); // "9.21"
    static QString percent(double fraction);            // 0.184 → "18.4 %"
    // A round trip's number of ms, with the digits it needs: "0.06" on a LAN or loopback, "4.2", "38".
    static QString milliseconds(double ms);
    static QString shortPeerId(const QString& peerIdHex); // "a1b2c3d4…"
    // A time of day as the locale writes it ("7:53 PM"), but on a 24-hour clock where the locale's AM/PM
    // markers are Latin letters in a language that is not English: Bengali read "৭:৫৩ PM"; now "১৯:৫৩".
    static QString clock(const QTime& time);
    // A date and a time, the date short ("05/12/2026 ১৯:৫৩").
    static QString dateAndClock(const QDateTime& dateTime);
};

} // namespace sahaj::ui
