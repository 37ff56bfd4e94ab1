#pragma once

#include "core/engine/HardwareReport.h"

#include <string>

namespace sahaj::engine {

// The first-run wizard's hardware check, run by the compute core (`sahaj-core --self-test`, a child
// process under a deadline, docs/compute-cores.md): which devices the core can train on, how much memory
// there is, and how many samples per second a forward and backward pass of `model` (sahajBERT by default)
// reach on `device` with micro-batches of `microBatch` 128-token sequences. The device "auto" measures
// what the engine would choose (engine::CorePlanner) and says what it passed over.
class HardwareProbe {
public:
    static constexpr int kDefaultTimeoutMs = 300000;

    // Never throws: a failure (no core, no such device, out of memory, a core that hangs) is the report's
    // problem.
    static HardwareReport measure(const QString& device, int microBatch,
                                  const std::string& model = "sahajbert", int timeoutMs = kDefaultTimeoutMs);
};

} // namespace sahaj::engine
