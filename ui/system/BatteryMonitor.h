#pragma once

#include <QDBusConnection>
#include <QObject>
#include <QStringList>
#include <QVariantMap>

#include <optional>

class QDBusServiceWatcher;

namespace sahaj::ui {

// Whether the machine runs on battery, from UPower on the system bus (its OnBattery property, kept up to
// date by its PropertiesChanged signal). Every call is asynchronous with a short timeout, so the UI thread
// never waits on a slow or absent daemon; until UPower answers, and whenever it is gone, the state is
// unknown.
class BatteryMonitor : public QObject {
    Q_OBJECT
public:
    static constexpr int kCallTimeoutMs = 500;

    // `bus`: the system bus (a test may give another); an unconnected one leaves the state unknown.
    explicit BatteryMonitor(const QDBusConnection& bus, QObject* parent = nullptr);

    std::optional<bool> onBattery() const { return onBattery_; }
    // Asks UPower again; the answer comes later, with changed() when it differs.
    void refresh();

Q_SIGNALS:
    void changed();

private Q_SLOTS:
    void onPropertiesChanged(const QString& interface, const QVariantMap& changedProperties,
                             const QStringList& invalidatedProperties);

private:
    void set(std::optional<bool> value);

    QDBusConnection bus_;
    QDBusServiceWatcher* upowerWatcher_ = nullptr;
    std::optional<bool> onBattery_;
    bool asking_ = false;
};

} // namespace sahaj::ui
