#pragma once

#include "ui/system/SystemSensors.h"

#include <optional>

namespace sahaj::testing {

// Sensors a test sets by hand, announcing each change as the desktop's would. They start on mains power
// with the user away for hours, so that no automatic rule pauses the engine until a test says otherwise.
class TestSensors : public ui::SystemSensors {
public:
    // Both nullopt: unknown. A test may set them without a changed() signal, to be read at the next decision.
    std::optional<bool> battery = false;
    std::optional<qint64> idle = 10 * 3600 * 1000; // ten hours

    std::optional<bool> onBattery() const override { return battery; }
    std::optional<qint64> idleMs() const override { return idle; }

    void setBattery(std::optional<bool> value);
    void setIdle(std::optional<qint64> value);
};

} // namespace sahaj::testing
