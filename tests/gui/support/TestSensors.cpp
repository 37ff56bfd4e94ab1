#include "TestSensors.h"

namespace sahaj::testing {

void TestSensors::setBattery(std::optional<bool> value) {
    battery = value;
    Q_EMIT changed();
}

void TestSensors::setIdle(std::optional<qint64> value) {
    idle = value;
    Q_EMIT changed();
}

} // namespace sahaj::testing
