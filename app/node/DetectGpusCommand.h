#pragma once

#include "app/node/NodeCommand.h"

namespace sahaj::node {

// `sahaj-node detect-gpus`: asks the NVIDIA driver for the GPUs and prints one JSON report
// (compute::NvmlProbe). It runs as the short-lived child process the engine starts to choose a compute
// core, so that a vendor library that crashes or hangs takes only this process with it.
class DetectGpusCommand : public NodeCommand {
public:
    QString name() const override { return QStringLiteral("detect-gpus"); }
    QString summary() const override { return QStringLiteral("Report the GPUs the driver sees, as JSON"); }
    QString description() const override;
    void addOptions(QCommandLineParser&) const override {}
    int run(const QCommandLineParser& parser) override;
};

} // namespace sahaj::node
