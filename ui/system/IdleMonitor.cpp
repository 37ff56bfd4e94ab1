#include "ui/system/IdleMonitor.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>

namespace sahaj::ui {

namespace {

// The shortest idle rule is one minute: a user back after less than that was "active" for every rule
// already, so only a return after a longer absence needs the rules decided at once.
constexpr qint64 kAbsenceWorthTellingMs = 60 * 1000;

QDBusMessage idleQuery(bool mutter) {
    if (mutter)
        return QDBusMessage::createMethodCall(QStringLiteral("org.gnome.Mutter.IdleMonitor"),
                                              QStringLiteral("/org/gnome/Mutter/IdleMonitor/Core"),
                                              QStringLiteral("org.gnome.Mutter.IdleMonitor"),
                                              QStringLiteral("GetIdletime"));
    return QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("/org/freedesktop/ScreenSaver"),
        QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("GetSessionIdleTime"));
}

// The idle time in a reply (an unsigned count of milliseconds), nullopt when the reply is not one.
std::optional<qint64> idleOf(const QDBusMessage& reply) {
    if (reply.type() != QDBusMessage::ReplyMessage || reply.arguments().isEmpty())
        return std::nullopt;
    const QVariant value = reply.arguments().constFirst();
    if (value.typeId() != QMetaType::ULongLong && value.typeId() != QMetaType::UInt)
        return std::nullopt;
    const qulonglong ms = value.toULongLong();
    // A year of idleness is not a measurement.
    if (ms > qulonglong(366) * 24 * 3600 * 1000)
        return std::nullopt;
    return static_cast<qint64>(ms);
}

} // namespace

IdleMonitor::IdleMonitor(const QDBusConnection& bus, QObject* parent) : QObject(parent), bus_(bus) {
    if (!bus_.isConnected())
        return;
    poll_.setInterval(kPollMs);
    connect(&poll_, &QTimer::timeout, this, &IdleMonitor::refresh);
    poll_.start();
    refresh();
}

std::optional<qint64> IdleMonitor::idleMs() const {
    if (!measuredMs_)
        return std::nullopt;
    return *measuredMs_ + sinceMeasured_.elapsed();
}

void IdleMonitor::refresh() {
    if (!bus_.isConnected() || asking_)
        return;
    asking_ = true;
    ask(preferred_, false);
}

void IdleMonitor::ask(Source source, bool lastTry) {
    auto* watcher = new QDBusPendingCallWatcher(
        bus_.asyncCall(idleQuery(source == Source::Mutter), kCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, source, lastTry](QDBusPendingCallWatcher* call) {
                call->deleteLater();
                const std::optional<qint64> idle = idleOf(call->reply());
                if (idle) {
                    preferred_ = source; // ask the one that answers first next time
                } else if (!lastTry) {
                    ask(source == Source::Mutter ? Source::ScreenSaver : Source::Mutter, true);
                    return;
                }
                asking_ = false;
                answered(idle);
            });
}

void IdleMonitor::answered(std::optional<qint64> idle) {
    // Compared with the last measurement, not its extrapolation: idle time only ever drops when the user
    // touched the machine, while the extrapolation runs a little ahead of the next measurement.
    const std::optional<qint64> before = measuredMs_;
    measuredMs_ = idle;
    sinceMeasured_.start();
    const bool knownChanged = before.has_value() != idle.has_value();
    const bool cameBack = before && idle && *idle < *before && *before >= kAbsenceWorthTellingMs;
    if (knownChanged || cameBack)
        Q_EMIT changed();
}

} // namespace sahaj::ui
