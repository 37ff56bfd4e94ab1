#include "core/engine/HardwareProbe.h"

#include "core/engine/CoreLocator.h"
#include "core/engine/CorePlanner.h"
#include "core/engine/CoreSelfTestProcess.h"

#include <unistd.h>

namespace sahaj::engine {

namespace {

qint64 physicalMemory() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? static_cast<qint64>(pages) * size : 0;
}

QStringList linesOf(const std::vector<std::string>& lines) {
    QStringList list;
    for (const std::string& line : lines)
        list << QString::fromStdString(line);
    return list;
}

} // namespace

HardwareReport HardwareProbe::measure(const QString& device, int microBatch, const std::string& model,
                                      int timeoutMs) {
    HardwareReport report;
    report.device = device;
    report.microBatch = microBatch;
    report.devices << QStringLiteral("cpu");
    report.memoryBytes = physicalMemory();
    if (microBatch < 1) {
        report.problem = QStringLiteral("the micro-batch must hold at least one sample");
        return report;
    }
    CoreLaunch core;
    try {
        if (device == QLatin1String("auto")) {
            // What the engine would train on: the GPU check, the GPU cores' self-tests, the fallbacks.
            const CorePlan plan = CorePlanner::forThisMachine("auto", 0);
            report.training = linesOf(plan.training);
            report.passedOver = linesOf(plan.passedOver);
            core = plan.devices.front().front();
            report.device = QString::fromStdString(core.device);
        } else {
            core = CoreLocator::launchesFor(device.toStdString(), 0).front();
        }
    } catch (const std::exception& e) {
        report.problem = QString::fromStdString(e.what());
        return report;
    }
    const CoreSelfTestProcess::Result measured = CoreSelfTestProcess::run(core, model, microBatch, timeoutMs);
    if (!measured.problem.isEmpty()) {
        report.problem = measured.problem;
        return report;
    }
    report.samplesPerSecond = measured.samplesPerSecond;
    if (!measured.devices.isEmpty())
        report.devices = measured.devices;
    if (!report.devices.contains(QStringLiteral("cpu")))
        report.devices.prepend(QStringLiteral("cpu"));
    return report;
}

} // namespace sahaj::engine
