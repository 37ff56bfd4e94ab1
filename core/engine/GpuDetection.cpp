#include "core/engine/GpuDetection.h"

#include <QProcess>

#include <stdexcept>

namespace sahaj::engine {

compute::NvmlProbe::Result GpuDetection::run(const QString& program, const QStringList& arguments,
                                             int timeoutMs) {
    compute::NvmlProbe::Result failed;
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForStarted(timeoutMs)) {
        failed.problem = "the GPU check could not start (" + process.errorString().toStdString() + ")";
        return failed;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        failed.problem = "the GPU check did not answer within " +
                         QString::number(timeoutMs / 1000.0).toStdString() +
                         " s (the driver hangs?): no GPU is used";
        return failed;
    }
    if (process.exitStatus() != QProcess::NormalExit) {
        failed.problem = "the GPU check crashed (the driver's library?): no GPU is used";
        return failed;
    }
    if (process.exitCode() != 0) {
        failed.problem =
            "the GPU check exited with status " + std::to_string(process.exitCode()) + ": no GPU is used";
        return failed;
    }
    const QByteArray output = process.readAllStandardOutput().trimmed();
    try {
        return compute::NvmlProbe::parseReport(
            std::string_view(output.constData(), static_cast<std::size_t>(output.size())));
    } catch (const std::exception& e) {
        failed.problem = std::string("the GPU check printed no report (") + e.what() + "): no GPU is used";
        return failed;
    }
}

} // namespace sahaj::engine
