#pragma once

#include <QDBusConnection>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <optional>

namespace sahaj::ui {

// How long the user has left the machine alone, from the session bus: GNOME's Mutter idle monitor
// (org.gnome.Mutter.IdleMonitor GetIdletime), else the freedesktop screensaver interface
// (org.freedesktop.ScreenSaver GetSessionIdleTime, which KDE Plasma answers in milliseconds). Unknown when
// neither answers or there is no session bus. There is no signal for idle time, so it is polled; calls are
// asynchronous with a short timeout, and between polls the last answer is extrapolated (idle time grows
// with the clock until the user comes back).
class IdleMonitor : public QObject {
    Q_OBJECT
public:
    static constexpr int kCallTimeoutMs = 500;
    static constexpr int kPollMs = 5000;

    // `bus`: the session bus (a test may give another); an unconnected one leaves the idle time unknown.
    explicit IdleMonitor(const QDBusConnection& bus, QObject* parent = nullptr);

    std::optional<qint64> idleMs() const;
    // Asks again now; the answer comes later.
    void refresh();

Q_SIGNALS:
    // The idle time became known or unknown, or the user came back after a minute or more away.
    void changed();

private:
    enum class Source { Mutter, ScreenSaver };

    void ask(Source source, bool lastTry);
    void answered(std::optional<qint64> idleMs);

    QDBusConnection bus_;
    QTimer poll_;
    Source preferred_ = Source::Mutter;
    bool asking_ = false;
    std::optional<qint64> measuredMs_;
    QElapsedTimer sinceMeasured_;
};

} // namespace sahaj::ui
