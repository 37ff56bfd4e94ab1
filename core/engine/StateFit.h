#pragma once

#include "core/collab/TrainingState.h"
#include "core/engine/OptimizerStateArrays.h"
#include "core/optim/ParameterSegment.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sahaj::engine {

// Whether a training state (a donor's, a checkpoint's) fits this peer's model and optimiser, checked in
// full before anything changes: every parameter of the layout present, no other, each of its shape and
// floating point, every value finite; LAMB's arrays as OptimizerStateArrays and optim::FlatLamb take them.
// A donor's state passes the schema check of its snapshot (StateSnapshot) on the donor's word: the hash in
// its metadata is what the donor wrote, so the layout is checked here, by what this peer's model is.
// Immutable once made: the collaboration thread checks a downloaded state with the same object the
// training thread's ModelReplica loads through.
class StateFit {
public:
    // segments: the model's parameters in the layout's order (contiguous from offset 0); shapes: each
    // segment's tensor shape.
    StateFit(std::vector<optim::ParameterSegment> segments, std::vector<std::vector<std::int64_t>> shapes);

    // The state's values in this model's flat layout.
    struct Flat {
        std::vector<float> parameters;
        OptimizerStateArrays::Flat optimizer;
    };
    // Throws std::runtime_error naming `origin` and the first problem.
    Flat check(const collab::TrainingState& state, const std::string& origin) const;
    // The same checks without the flat copy (three times the model's size: 216 MB for sahajBERT), one
    // parameter at a time: what a state that is only to be judged needs (DownloadedState, for each donor's).
    void validate(const collab::TrainingState& state, const std::string& origin) const;

private:
    // Checks the state parameter by parameter; into: where its flat values go, or nullptr (validate).
    void walk(const collab::TrainingState& state, const std::string& origin, Flat* into) const;

    std::vector<optim::ParameterSegment> segments_;
    std::vector<std::vector<std::int64_t>> shapes_;
    std::size_t size_ = 0;
};

} // namespace sahaj::engine
