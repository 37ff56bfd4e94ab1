#pragma once

#include "core/engine/CoreLaunch.h"

#include <QString>
#include <QStringList>

#include <string>

namespace sahaj::engine {

// One core's self-test (`sahaj-core --self-test`, docs/compute-cores.md) as a child process under a
// deadline: a short forward and backward of `model` on the launch's device. What the wizard's hardware
// check measures and what proves a GPU core before the engine trusts it.
class CoreSelfTestProcess {
public:
    struct Result {
        double samplesPerSecond = 0.0;
        QStringList devices; // what the core can train on, as it says
        QString problem;     // why it failed, in the core's words where it gave them; empty when it passed
    };

    // Never throws: a core that cannot start, fails, crashes or hangs (killed after `timeoutMs`) gives a
    // problem and no figure.
    static Result run(const CoreLaunch& core, const std::string& model, int microBatch, int timeoutMs);
};

} // namespace sahaj::engine
