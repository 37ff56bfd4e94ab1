#pragma once

#include <QObject>

#include <optional>

namespace sahaj::ui {

// What the desktop tells of the machine, for the automatic pause rules: whether it runs on battery and how
// long the user has left it alone. Either may be unknown (no UPower, a desktop without an idle monitor, no
// bus at all); an unknown value never pauses. Reading is cheap and never blocks: implementations keep the
// last values they learnt and announce news with changed().
class SystemSensors : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~SystemSensors() override = default;

    // nullopt: unknown.
    virtual std::optional<bool> onBattery() const = 0;
    // Milliseconds since the user's last keyboard or mouse input; nullopt: unknown.
    virtual std::optional<qint64> idleMs() const = 0;

Q_SIGNALS:
    // A value changed, became known or became unknown: the rules should be decided again.
    void changed();
};

} // namespace sahaj::ui
