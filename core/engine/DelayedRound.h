#pragma once

#include "core/engine/CollaborationLink.h"
#include "core/engine/EpochReport.h"

#include <future>
#include <vector>

namespace sahaj::engine {

// A gradient round the training thread started and does not wait for (TrainingSettings::delayedUpdates,
// docs/collaboration.md, "Delayed parameter updates"): its group (the state round every K epochs runs in
// it too), the epoch's report as far as the start could fill it, a copy of the gradient sent with its
// weight (sent again, not recomputed, should the group fall apart before its round begins: the next batch
// is already accumulating), and the round's outcome to come; then, every K epochs, the state round's.
struct DelayedRound {
    FormedGroup group;
    EpochReport report;
    std::vector<float> gradient;
    double weight = 0.0;
    std::future<RoundOutcome> outcome; // invalid once taken, or for a round held to be sent again
    // The state round that follows the step every parameter_averaging_every epochs, under way: the step is
    // in the report, and `outcome` is the averaged state's.
    bool stateRound = false;
};

} // namespace sahaj::engine
