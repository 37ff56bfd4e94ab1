#pragma once

#include "core/model/AlbertConfig.h"

#include <string>

namespace sahaj::device {

// sahaj-core --self-test: builds the model on the device, computes a few micro-batches of random tokens and
// reports the device and the samples per second it reached, as one JSON line. The engine runs it before it
// trusts a core variant with a device (docs/compute-cores.md); a core that crashes, hangs or reports a
// non-finite loss here is passed over.
struct CoreSelfTestOptions {
    model::AlbertConfig config = model::AlbertConfig::named("tiny");
    std::string device = "cpu";
    int microBatch = 4;
    int sequenceLength = 128;
    int steps = 3;         // timed, after one warm-up
    double seconds = 20.0; // no further timed step once this much is spent (at least one is)
};

class CoreSelfTest {
public:
    // The JSON report: {"ok", "device", "devices" (every device this libtorch can train on: "cpu",
    // "cuda:0", ...), "micro_batch", "samples_per_second", "loss"}. Throws std::runtime_error when the
    // device cannot be used or the loss is not finite.
    static std::string run(const CoreSelfTestOptions& options);
};

} // namespace sahaj::device
