#pragma once

#include "core/collab/TrainingState.h"

#include <string>
#include <string_view>

namespace sahaj::collab {

// A TrainingState as bytes, for state sync: one safetensors image holding "model/<name>" and
// "optimizer/<name>" tensors, with the epoch, the step, a format tag and the run's schema hash in its
// metadata. The receiver decodes it with every check SafeTensors applies to a file, then refuses a
// snapshot of another format or schema (another run or model), so a donor cannot hand over a state that
// does not fit.
class StateSnapshot {
public:
    static constexpr const char* kFormat = "sahaj-state/1";

    static std::string serialize(const TrainingState& state, const std::string& schema);
    // Throws std::runtime_error naming `origin` and the problem.
    static TrainingState deserialize(std::string_view bytes, const std::string& schema,
                                     const std::string& origin);
};

} // namespace sahaj::collab
