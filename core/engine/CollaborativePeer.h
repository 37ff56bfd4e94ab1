#pragma once

#include "core/engine/CollaborationLink.h"
#include "core/engine/CorePlan.h"
#include "core/engine/DelayedRound.h"
#include "core/engine/EpochReport.h"
#include "core/engine/PeerControls.h"
#include "core/engine/PeerOptions.h"
#include "core/net/AddressWatch.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace sahaj::engine {

class CollaborationLink;
class GradientAccumulator;
class ModelReplica;
class StateCheckpoint;

// One peer's training loop (the training thread of docs/architecture.md, "Threads"). A volunteer computes
// micro-batches and reports its progress; a coordinator only waits. Between micro-batches it takes what the
// collaboration thread prepared: a newer state to load, or a group to average the accumulated gradient in,
// after which it applies the optimiser step (and, every K epochs, averages the parameters too), and hands the
// new state back for serving.
class CollaborativePeer {
public:
    struct Events {
        std::function<void(const EpochReport&)> onEpoch;
        std::function<void(const std::string&)> onMessage; // one line for the log
        // Every few seconds: what the collaboration thread sees (live progress between epochs).
        std::function<void(const LinkStatus&, std::uint64_t localSamples)> onStatus;
    };

    // Builds the model replica (the run's initial weights), the data pipeline and the collaboration
    // thread; a coordinator with a checkpoint in stateDir resumes from it. Throws on bad options or
    // files, naming them.
    explicit CollaborativePeer(PeerOptions options);
    ~CollaborativePeer();
    CollaborativePeer(const CollaborativePeer&) = delete;
    CollaborativePeer& operator=(const CollaborativePeer&) = delete;

    // Trains until `stop` is set or the stop epoch is reached. Returns the epoch reached.
    std::uint64_t run(const std::atomic<bool>& stop, const Events& events);
    // The same, obeying `controls` as they change (pause, duty cycle, micro-batch, caps); stops when
    // either `stop` or controls.stop is set.
    std::uint64_t run(const std::atomic<bool>& stop, const PeerControls& controls, const Events& events);

    const std::string& peerIdHex() const { return peerIdHex_; }
    // The ROUTER's endpoint and the DHT port (empty and 0 while paused: not in the collaboration).
    std::string endpoint() const;
    std::uint16_t dhtPort() const;
    const std::string& role() const { return role_; }
    // This peer's samples and tokens in the current batch (0 for a peer that trains nothing).
    std::int64_t batchSamples() const;
    std::int64_t batchTokens() const;
    std::uint64_t epoch() const;
    std::string parametersSha256() const;
    // What computes this peer's gradients, and what was passed over (empty for a peer that trains
    // nothing).
    const CorePlan& computePlan() const { return computePlan_; }
    // Whether the others can dial this peer, as last found (when it joined, or moved).
    const Reachability& reachability() const { return options_.reachability; }
    // The coordinator's checkpoint, written now (also done every checkpointEvery epochs and by run()
    // when it ends).
    void saveCheckpoint();

private:
    // The epoch at which this peer stops training and leaves (PeerOptions::stopAtEpoch, else the run's end).
    std::uint64_t lastEpoch() const;
    // The epoch's report as the group begins: its members and shares, this peer's batch.
    EpochReport reportFor(const FormedGroup& group) const;
    // Whether the group of `epoch` also averages the state (every parameter_averaging_every epochs).
    bool averagesStateAt(std::uint64_t epoch) const;
    // The gradient this peer sends to `group` (the accumulated one, zeros for a coordinator, a test's
    // attack applied) and, in `weight`, the samples it claims behind it.
    std::vector<float> gradientFor(const FormedGroup& group, double& weight) const;
    // Waits for the group's rounds and steps (the default, synchronous updates).
    EpochReport averageAndStep(FormedGroup& group);
    // The rest of an epoch whose gradient round ended: the step, the state round when due, the state
    // offered. delayed: the accumulator already holds the next batch's first micro-batches.
    EpochReport finishEpoch(FormedGroup& group, EpochReport report, RoundOutcome outcome, bool delayed);
    // Its parts. stepWith applies the gradient round's outcome (false: no step, the report is final);
    // stateToSend is this peer's state vector and weight for the state round, takeStateRound loads its
    // outcome; concludeEpoch offers the new state and completes the report.
    bool stepWith(EpochReport& report, const RoundOutcome& outcome);
    std::pair<std::vector<float>, double> stateToSend() const;
    void takeStateRound(EpochReport& report, const RoundOutcome& parameters);
    EpochReport concludeEpoch(EpochReport report, bool delayed);
    // Delayed updates: starts the group's gradient round and returns to computing; finishDelayedRound
    // steps once the round has ended (nullopt for a group that fell apart before it: the gradient is held
    // for the next group at its epoch).
    void beginDelayedRound(FormedGroup group);
    std::optional<EpochReport> finishDelayedRound();
    bool delayedUpdates() const;
    // Tells the collaboration thread this epoch's samples so far (and the rate), unless a delayed round runs.
    void reportProgress(double samplesPerSecond);
    // An epoch's step is done: its times into `report`, the checkpoint when due, the report handed on.
    void epochEnded(EpochReport& report, const Events& events);
    void offerState();
    // Applies what changed in `controls` since the last call; leaves or rejoins the collaboration.
    // Returns false while paused.
    bool obey(const PeerControls& controls, const Events& events);
    // This computer's address toward the coordinator changed to `address`: leaves the collaboration and
    // readies the link to rejoin there (obey() rejoins), with the role a new reachability check gives.
    void moveTo(const QString& address, const Events& events);

    PeerOptions options_;
    std::unique_ptr<ModelReplica> replica_;
    CorePlan computePlan_;
    std::unique_ptr<GradientAccumulator> accumulator_;
    std::unique_ptr<CollaborationLink> link_;       // null while paused
    LinkOptions linkOptions_;                       // to rejoin with after a pause
    std::optional<net::AddressWatch> addressWatch_; // PeerOptions::followRoute
    std::uint64_t capsVersion_ = 0;
    std::string role_;
    std::string peerIdHex_;
    std::string schema_; // ModelReplica::schemaHash of this run: computed once
    std::uint64_t lastCheckpointEpoch_ = 0;
    // The state this peer last served: where it returns when a step leaves non-finite parameters.
    std::optional<collab::TrainingState> lastGood_;
    std::optional<DelayedRound> inFlight_; // delayed updates: the gradient round under way
    std::optional<DelayedRound> held_;     // delayed updates: a gradient whose group fell apart, to resend
    double computeSeconds_ = 0.0;          // since the last epoch
    // The end of the duty cycle's rest after the last micro-batch (run): the next one waits for it.
    std::chrono::steady_clock::time_point restUntil_{};
    std::chrono::steady_clock::time_point lastEpochAt_{};
};

} // namespace sahaj::engine
