#pragma once

#include "core/engine/HardwareReport.h"

#include <string>

namespace sahaj::engine {

// The first-run wizard's hardware check: which devices torch can train on, how much memory there is, and
// how many samples per second a forward and backward pass of `model` (sahajBERT by default) reach on
// `device` with micro-batches of `microBatch` 128-token sequences.
class HardwareProbe {
public:
    // Never throws: a failure (no such device, out of memory) is the report's problem.
    static HardwareReport measure(const QString& device, int microBatch,
                                  const std::string& model = "sahajbert");
};

} // namespace sahaj::engine
