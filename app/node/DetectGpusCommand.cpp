#include "app/node/DetectGpusCommand.h"

#include "core/compute/NvmlProbe.h"

#include <QTextStream>

namespace sahaj::node {

QString DetectGpusCommand::description() const {
    return QStringLiteral(
        "Load NVIDIA's management library (libnvidia-ml.so.1) and print one JSON object: every GPU's index, "
        "name, UUID, memory, compute capability and the driver's version, and the problem when there are "
        "none. The engine runs this as a child process with a deadline before it chooses a compute core.");
}

int DetectGpusCommand::run(const QCommandLineParser&) {
    QTextStream(stdout) << QString::fromStdString(compute::NvmlProbe::report(compute::NvmlProbe::probe()))
                        << "\n";
    return 0;
}

} // namespace sahaj::node
