#include "core/engine/HardwareProbe.h"

#include "core/engine/CoreLocator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <unistd.h>

namespace sahaj::engine {

namespace {

qint64 physicalMemory() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? static_cast<qint64>(pages) * size : 0;
}

// Why the core failed, in its words: its first "sahaj-core: ..." line on standard error (a usage text
// may follow it), else its last line.
QString reasonIn(const QByteArray& text) {
    const QList<QByteArray> lines = text.trimmed().split('\n');
    for (const QByteArray& line : lines)
        if (line.startsWith("sahaj-core: "))
            return QString::fromUtf8(line.mid(12)).trimmed().left(300);
    return lines.isEmpty() ? QString() : QString::fromUtf8(lines.last()).trimmed().left(300);
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
        core = CoreLocator::launchesFor(device.toStdString(), 0).front();
    } catch (const std::exception& e) {
        report.problem = QString::fromStdString(e.what());
        return report;
    }
    QProcess process;
    process.start(QString::fromStdString(core.executable.string()),
                  {QStringLiteral("--self-test"), QStringLiteral("--device"),
                   QString::fromStdString(core.device), QStringLiteral("--config"),
                   QString::fromStdString(model), QStringLiteral("--micro-batch"),
                   QString::number(microBatch)});
    if (!process.waitForStarted(30000)) {
        report.problem = QStringLiteral("the %1 core could not start (%2)")
                             .arg(QString::fromStdString(core.variant), process.errorString());
        return report;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        report.problem = QStringLiteral("the %1 core's self-test did not end within %2 s")
                             .arg(QString::fromStdString(core.variant))
                             .arg(timeoutMs / 1000);
        return report;
    }
    const QJsonObject result = QJsonDocument::fromJson(process.readAllStandardOutput().trimmed()).object();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0 || !result["ok"].toBool()) {
        const QString why = reasonIn(process.readAllStandardError());
        report.problem = why.isEmpty() ? QStringLiteral("the %1 core's self-test failed (exit status %2)")
                                             .arg(QString::fromStdString(core.variant))
                                             .arg(process.exitCode())
                                       : why;
        return report;
    }
    const double speed = result["samples_per_second"].toDouble();
    if (!(speed > 0.0 && speed < 1e9)) {
        report.problem = QStringLiteral("the core's self-test reported no speed");
        return report;
    }
    report.samplesPerSecond = speed;
    report.devices.clear();
    for (const QJsonValue& name : result["devices"].toArray())
        if (name.isString() && report.devices.size() < 64)
            report.devices << name.toString().left(40);
    if (!report.devices.contains(QStringLiteral("cpu")))
        report.devices.prepend(QStringLiteral("cpu"));
    return report;
}

} // namespace sahaj::engine
