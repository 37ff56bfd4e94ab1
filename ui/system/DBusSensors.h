#pragma once

#include "ui/system/SystemSensors.h"

namespace sahaj::ui {

class BatteryMonitor;
class IdleMonitor;

// The machine's sensors on a Linux desktop: UPower's battery state on the system bus and the session's idle
// time (BatteryMonitor, IdleMonitor). Without a bus, or without the services, both stay unknown and the
// rules that need them do not apply.
class DBusSensors : public SystemSensors {
    Q_OBJECT
public:
    explicit DBusSensors(QObject* parent = nullptr);

    std::optional<bool> onBattery() const override;
    std::optional<qint64> idleMs() const override;

private:
    BatteryMonitor* battery_;
    IdleMonitor* idle_;
};

} // namespace sahaj::ui
