#include "ui/system/DBusSensors.h"

#include "ui/system/BatteryMonitor.h"
#include "ui/system/IdleMonitor.h"

namespace sahaj::ui {

DBusSensors::DBusSensors(QObject* parent)
    : SystemSensors(parent), battery_(new BatteryMonitor(QDBusConnection::systemBus(), this)),
      idle_(new IdleMonitor(QDBusConnection::sessionBus(), this)) {
    connect(battery_, &BatteryMonitor::changed, this, &SystemSensors::changed);
    connect(idle_, &IdleMonitor::changed, this, &SystemSensors::changed);
}

std::optional<bool> DBusSensors::onBattery() const {
    return battery_->onBattery();
}

std::optional<qint64> DBusSensors::idleMs() const {
    return idle_->idleMs();
}

} // namespace sahaj::ui
