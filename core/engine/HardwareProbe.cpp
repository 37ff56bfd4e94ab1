#include "core/engine/HardwareProbe.h"

#include "core/model/TrainingSpeedProbe.h"

#include <unistd.h>

namespace sahaj::engine {

namespace {

qint64 physicalMemory() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? static_cast<qint64>(pages) * size : 0;
}

} // namespace

HardwareReport HardwareProbe::measure(const QString& device, int microBatch, const std::string& model) {
    const model::TrainingSpeed speed =
        model::TrainingSpeedProbe::measure(device.toStdString(), microBatch, model);
    HardwareReport report;
    report.device = device;
    report.microBatch = microBatch;
    for (const std::string& name : speed.devices)
        report.devices << QString::fromStdString(name);
    report.memoryBytes = physicalMemory();
    report.samplesPerSecond = speed.samplesPerSecond;
    report.problem = QString::fromStdString(speed.problem);
    return report;
}

} // namespace sahaj::engine
