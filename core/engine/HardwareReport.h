#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace sahaj::engine {

// What the first-run wizard shows of this machine: the devices training can use, the memory, and a short
// measured training speed of the run's model on the chosen device.
struct HardwareReport {
    QStringList devices;         // "cpu", "cuda:0", ...
    QString device;              // the one measured
    qint64 memoryBytes = 0;      // the machine's physical memory, 0: unknown
    int microBatch = 0;          // samples per forward/backward measured with
    double samplesPerSecond = 0; // forward + backward of the run's model (or sahajBERT's when no run yet)
    QString problem;             // why the measurement failed, empty when it worked
    // With the device "auto": what the engine would train on and what it passed over, and why
    // (engine::CorePlan).
    QStringList training;
    QStringList passedOver;
};

} // namespace sahaj::engine

Q_DECLARE_METATYPE(sahaj::engine::HardwareReport)
