#include "core/engine/CoreSelfTestProcess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace sahaj::engine {

namespace {

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

CoreSelfTestProcess::Result CoreSelfTestProcess::run(const CoreLaunch& core, const std::string& model,
                                                     int microBatch, int timeoutMs) {
    Result result;
    const QString variant = QString::fromStdString(core.variant);
    QStringList arguments{QStringLiteral("--self-test"),       QStringLiteral("--device"),
                          QString::fromStdString(core.device), QStringLiteral("--config"),
                          QString::fromStdString(model),       QStringLiteral("--micro-batch"),
                          QString::number(microBatch)};
    QProcess process;
    process.start(QString::fromStdString(core.executable.string()), arguments);
    if (!process.waitForStarted(30000)) {
        result.problem =
            QStringLiteral("the %1 core could not start (%2)").arg(variant, process.errorString());
        return result;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        result.problem = QStringLiteral("the %1 core's self-test did not end within %2 s")
                             .arg(variant)
                             .arg(timeoutMs / 1000);
        return result;
    }
    const QJsonObject report = QJsonDocument::fromJson(process.readAllStandardOutput().trimmed()).object();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0 || !report["ok"].toBool()) {
        const QString why = reasonIn(process.readAllStandardError());
        result.problem = why.isEmpty() ? QStringLiteral("the %1 core's self-test failed (exit status %2)")
                                             .arg(variant)
                                             .arg(process.exitCode())
                                       : why;
        return result;
    }
    const double speed = report["samples_per_second"].toDouble();
    if (!(speed > 0.0 && speed < 1e9)) {
        result.problem = QStringLiteral("the %1 core's self-test reported no speed").arg(variant);
        return result;
    }
    result.samplesPerSecond = speed;
    for (const QJsonValue& name : report["devices"].toArray())
        if (name.isString() && result.devices.size() < 64)
            result.devices << name.toString().left(40);
    return result;
}

} // namespace sahaj::engine
