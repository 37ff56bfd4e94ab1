#pragma once

#include "core/engine/GradientAccumulator.h"
#include "core/engine/GradientAttack.h"
#include "core/engine/LinkOptions.h"
#include "core/engine/Reachability.h"
#include "core/run/RunManifest.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace sahaj::engine {

// One peer of a collaboration, as the command line or the app describes it.
struct PeerOptions {
    run::RunManifest manifest;
    // A volunteer trains; a coordinator (trains = false) keeps the model with weight 0, aggregates and
    // checkpoints.
    bool trains = true;
    // The compute core's device ("cpu", "cuda", "cuda:N") and CPU threads (0: its default).
    std::string device = "cpu";
    int computeThreads = 0;
    // The compute cores' niceness, 0 to 19 as nice(1) counts (0: as the engine's): above 0 the engine, the
    // network and the volunteer's other programs go first when CPU time is short.
    int coreNiceness = 0;
    // Share of the time spent computing, in (0, 1]: after each micro-batch the trainer rests so that
    // computing takes this fraction of the wall time (the user's GPU/CPU usage limit).
    double dutyCycle = 1.0;
    // The volunteer's data and batching (corpusPath, tokenizerPath, microBatchSize, seed); the sequence
    // length, masking and document layout come from the manifest.
    AccumulatorOptions data;
    LinkOptions link; // runId, schemaHash, vector sizes, encoding and averaging period are filled in
    // Where the coordinator keeps its checkpoint (empty: none): DIR/state.snapshot, DIR/model/.
    QString stateDir;
    std::int64_t checkpointEvery = 5;
    // How often run() calls Events::onStatus (between micro-batches, so no more often than they end).
    std::chrono::milliseconds statusInterval{5000};
    // Stop once the replica reaches this epoch (0: the manifest's max_epochs).
    std::uint64_t stopAtEpoch = 0;
    // Testing a run's defences only: send this instead of the gradient (GradientAttack).
    GradientAttack::Kind attack = GradientAttack::Kind::None;
    // Testing a run's defences only (GradientAttack::FakeState): as a donor, serve a state of its own
    // making. False for every honest peer.
    bool fakeState = false;
    // How link.role was chosen when the peer joined (ReachabilityCheck), for the user, and again when its
    // address changes.
    Reachability reachability;
    // Where the peer listens was not given (--listen): it follows this computer's address toward the
    // coordinator (link.bootstrap's first), binding and announcing itself anew when the address changes
    // (AddressWatch), and asks the token endpoint `authEndpoint` to dial it back there.
    bool followRoute = false;
    std::string authEndpoint;
};

} // namespace sahaj::engine
