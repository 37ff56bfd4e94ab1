#pragma once

#include "core/compute/NvmlProbe.h"

#include <QString>
#include <QStringList>

namespace sahaj::engine {

// Runs the GPU check (`sahaj-node detect-gpus`, compute::NvmlProbe) as a child process under a deadline,
// as BOINC runs its --detect_gpus: a vendor library that crashes or hangs costs only the child. Whatever
// goes wrong, the result has no GPUs and a problem that says what happened, and training falls back to
// the CPU core.
class GpuDetection {
public:
    static constexpr int kDefaultTimeoutMs = 20000;

    static compute::NvmlProbe::Result run(const QString& program, const QStringList& arguments,
                                          int timeoutMs = kDefaultTimeoutMs);
};

} // namespace sahaj::engine
