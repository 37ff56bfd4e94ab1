#include "core/engine/CollaborativePeer.h"

#include "core/collab/StateChunker.h"
#include "core/collab/StateSnapshot.h"
#include "core/collab/TensorEncoding.h"
#include "core/collab/ThroughputEstimator.h"
#include "core/engine/CorePlanner.h"
#include "core/engine/CoreSupervisor.h"
#include "core/engine/GradientAccumulator.h"
#include "core/engine/KnownDhtNodes.h"
#include "core/engine/ModelReplica.h"
#include "core/engine/ReachabilityCheck.h"
#include "core/engine/StateCheckpoint.h"
#include "core/security/PeerIdentity.h"

#include <QByteArray>
#include <QCryptographicHash>

#include <stdexcept>
#include <thread>

namespace sahaj::engine {

namespace {

using namespace std::chrono_literals;

// Every peer of a run starts from the same weights: the seed is a function of the run id alone.
std::uint64_t initialSeed(const QString& runId) {
    const QByteArray digest = QCryptographicHash::hash(QByteArrayLiteral("sahaj-init/") + runId.toUtf8(),
                                                       QCryptographicHash::Sha256);
    std::uint64_t seed = 0;
    for (int i = 0; i < 8; ++i)
        seed = (seed << 8) | static_cast<unsigned char>(digest[i]);
    return seed;
}

std::string roleName(wire::Role role) {
    switch (role) {
    case wire::ROLE_CLIENT:
        return "client";
    case wire::ROLE_AUXILIARY:
        return "auxiliary";
    default:
        return "node";
    }
}

std::string hex(const std::string& bytes) {
    return QByteArray::fromStdString(bytes).toHex().toStdString();
}

// Who a round excluded and why, into the epoch's report. The reasons are not one per excluded peer: a
// round also notes problems that exclude nobody (this peer's own vector was not finite, a mean
// overflowed, a member did not confirm a span).
void noteProblems(const RoundOutcome& outcome, EpochReport& report) {
    if (!outcome.excluded.empty()) {
        std::string peers;
        for (const std::string& peer : outcome.excluded)
            peers += (peers.empty() ? "" : ", ") + hex(peer).substr(0, 16);
        report.problems.push_back("excluded " + peers);
    }
    report.problems.insert(report.problems.end(), outcome.violations.begin(), outcome.violations.end());
}

} // namespace

CollaborativePeer::CollaborativePeer(PeerOptions options) : options_(std::move(options)) {
    if (!(options_.dutyCycle > 0.0 && options_.dutyCycle <= 1.0))
        throw std::invalid_argument("the duty cycle must be in (0, 1]");
    const run::RunManifest& manifest = options_.manifest;
    const run::TrainingSettings& training = manifest.training;
    replica_ = std::make_unique<ModelReplica>(manifest.model, training, initialSeed(manifest.runId));
    schema_ = replica_->schemaHash(manifest.sha256Hex().toStdString());
    if (options_.trains) {
        AccumulatorOptions data = options_.data;
        data.sequenceLength = static_cast<int>(training.sequenceLength);
        data.mlmProbability = training.mlmProbability;
        data.documents = training.documents;
        // The cores are chosen now (the GPU check, the GPU cores' self-tests), so that a machine without
        // one says so before it joins; each starts with its first micro-batch.
        computePlan_ = CorePlanner::forThisMachine(options_.device, options_.computeThreads);
        std::vector<std::unique_ptr<CoreSupervisor>> cores; // one per device: the CPU, or each GPU chosen
        for (std::vector<CoreLaunch> launches : computePlan_.devices) {
            for (CoreLaunch& launch : launches) {
                launch.seed = data.seed;
                launch.niceness = options_.coreNiceness;
            }
            cores.push_back(std::make_unique<CoreSupervisor>(std::move(launches), manifest.model));
        }
        accumulator_ =
            std::make_unique<GradientAccumulator>(data, std::move(cores), replica_->parameterCount());
    }
    if (!options_.stateDir.isEmpty()) {
        if (std::optional<collab::TrainingState> saved = StateCheckpoint::load(options_.stateDir, schema_)) {
            replica_->importState(*saved, options_.stateDir.toStdString());
            lastCheckpointEpoch_ = replica_->epoch();
        } else {
            // A new run's origin is saved at once: what training changed can be compared with it (the
            // demo's fill-mask before and after), and the folder holds a loadable model from the start.
            saveCheckpoint();
        }
    }

    LinkOptions link = options_.link;
    link.runId = manifest.runId;
    link.schemaHash = schema_;
    link.targetBatchSize = static_cast<std::uint64_t>(training.targetBatchSize);
    link.vectorSize = replica_->averagedVectorSize();
    link.stateVectorSize = replica_->averagedStateSize();
    link.stateFloors = replica_->stateFloors();
    link.stateFit = replica_->stateFit();
    link.encoding = training.wireDtype == run::WireDtype::Int8 ? collab::TensorEncoding::uint8Blockwise()
                                                               : collab::TensorEncoding::fp16();
    link.parameterAveragingEvery = training.parameterAveragingEvery;
    if (training.aggregation == run::Aggregation::CenteredClip) {
        collab::CenteredClipOptions clip;
        clip.tauFactor = training.centeredClipTauFactor;
        clip.maxIterations = static_cast<int>(training.centeredClipIterations);
        link.allReduce.centeredClip = clip;
    }
    link.trains = options_.trains;
    link.lastEpoch = lastEpoch();
    // A coordinator that restarts pings the nodes it knew before, or its run would split in two.
    if (!options_.stateDir.isEmpty())
        link.bootstrap += KnownDhtNodes::load(options_.stateDir);
    linkOptions_ = link;
    role_ = roleName(link.role);
    if (options_.followRoute && !link.bootstrap.empty())
        addressWatch_.emplace(link.bootstrap.front().section(QLatin1Char(':'), 0, 0), link.dhtBindAddress);
    link_ = std::make_unique<CollaborationLink>(link);
    peerIdHex_ = hex(link_->peerId());
    if (replica_->epoch() > 0)
        link_->epochCompleted(replica_->epoch(), nullptr);
    offerState();
}

CollaborativePeer::~CollaborativePeer() = default;

std::string CollaborativePeer::endpoint() const {
    return link_ ? link_->endpoint() : std::string();
}

std::uint16_t CollaborativePeer::dhtPort() const {
    return link_ ? link_->dhtPort() : 0;
}

std::int64_t CollaborativePeer::batchSamples() const {
    return accumulator_ ? accumulator_->samples() : 0;
}

std::int64_t CollaborativePeer::batchTokens() const {
    return accumulator_ ? accumulator_->tokens() : 0;
}

std::uint64_t CollaborativePeer::epoch() const {
    return replica_->epoch();
}

std::string CollaborativePeer::parametersSha256() const {
    return replica_->parameterSha256();
}

void CollaborativePeer::offerState() {
    lastGood_ = replica_->exportState();
    std::optional<collab::TrainingState> forged;
    if (options_.fakeState) {
        forged = *lastGood_;
        GradientAttack::forgeState(*forged);
    }
    const collab::TrainingState& served = forged ? *forged : *lastGood_;
    auto snapshot = std::make_shared<const collab::StateChunker>(
        collab::StateSnapshot::serialize(served, schema_), served.epoch);
    link_->epochCompleted(replica_->epoch(), std::move(snapshot));
}

void CollaborativePeer::saveCheckpoint() {
    if (options_.stateDir.isEmpty())
        return;
    StateCheckpoint::save(options_.stateDir,
                          collab::StateSnapshot::serialize(replica_->exportState(), schema_),
                          replica_->config(), replica_->parameterArrays(), options_.manifest.tokenizer.path,
                          replica_->epoch(), replica_->parameterSha256());
    lastCheckpointEpoch_ = replica_->epoch();
    if (link_)
        if (const QString problem = KnownDhtNodes::save(options_.stateDir, link_->knownDhtNodes());
            !problem.isEmpty())
            qWarning("the DHT nodes this coordinator knows were not kept for its next start (%s): %s",
                     qUtf8Printable(KnownDhtNodes::pathIn(options_.stateDir)), qUtf8Printable(problem));
}

std::uint64_t CollaborativePeer::lastEpoch() const {
    return options_.stopAtEpoch > 0 ? options_.stopAtEpoch
                                    : static_cast<std::uint64_t>(options_.manifest.training.maxEpochs);
}

std::uint64_t CollaborativePeer::run(const std::atomic<bool>& stop, const Events& events) {
    const PeerControls fixed; // nothing ever changes: the options rule
    return run(stop, fixed, events);
}

bool CollaborativePeer::obey(const PeerControls& controls, const Events& events) {
    if (const int batch = controls.microBatch.load();
        accumulator_ && batch > 0 && batch != accumulator_->microBatchSize())
        accumulator_->setMicroBatchSize(batch);
    if (const std::uint64_t version = controls.capsVersion.load(); version != capsVersion_) {
        capsVersion_ = version;
        linkOptions_.uploadBytesPerSecond = controls.uploadCap.load();
        linkOptions_.downloadBytesPerSecond = controls.downloadCap.load();
        if (link_)
            link_->setCaps(linkOptions_.uploadBytesPerSecond, linkOptions_.downloadBytesPerSecond);
    }
    if (addressWatch_ && link_)
        if (const std::optional<QString> moved = addressWatch_->changed())
            moveTo(*moved, events);
    if (controls.paused.load()) {
        if (link_) {
            link_.reset(); // publishes the departure
            if (events.onMessage)
                events.onMessage("paused: left the collaboration (this batch's " +
                                 std::to_string(batchSamples()) + " samples are kept)");
        }
        return false;
    }
    if (!link_) {
        link_ = std::make_unique<CollaborationLink>(linkOptions_);
        offerState(); // also tells the new link this peer's epoch
        reportProgress(0.0);
        if (events.onMessage)
            events.onMessage("resumed: rejoined the collaboration at epoch " +
                             std::to_string(replica_->epoch()));
    }
    return true;
}

void CollaborativePeer::moveTo(const QString& address, const Events& events) {
    const std::string from = linkOptions_.dhtBindAddress.toStdString();
    link_.reset(); // publishes the departure, from the old address if it still works
    linkOptions_.dhtBindAddress = address;
    linkOptions_.listenEndpoint = "tcp://" + address.toStdString() + ":0";
    std::string verdict;
    if (options_.reachability.verdict != Reachability::Verdict::ChosenClient &&
        linkOptions_.role != wire::ROLE_AUXILIARY) {
        // A move can put the computer behind a NAT, or take it out: it is asked again.
        PeerOptions check = options_;
        check.link = linkOptions_;
        check.link.role = wire::ROLE_NODE;
        try {
            options_.reachability = ReachabilityCheck::apply(check, options_.authEndpoint);
            linkOptions_.role = check.link.role;
            linkOptions_.stateDonor = check.link.role == wire::ROLE_NODE;
            linkOptions_.listenEndpoint = check.link.listenEndpoint;
            verdict = options_.reachability.summary().toStdString();
        } catch (const std::exception& e) {
            verdict = std::string("reachability not checked: ") + e.what();
        }
        role_ = roleName(linkOptions_.role);
    }
    if (events.onMessage)
        events.onMessage("this computer's address toward the coordinator changed from " + from + " to " +
                         address.toStdString() + ": rejoining there" +
                         (verdict.empty() ? "" : "; " + verdict));
}

std::uint64_t CollaborativePeer::run(const std::atomic<bool>& stop, const PeerControls& controls,
                                     const Events& events) {
    const std::uint64_t stopAt = lastEpoch();
    collab::ThroughputEstimator throughput;
    lastEpochAt_ = std::chrono::steady_clock::now();
    throughput.resume(collab::ThroughputEstimator::Clock::now());
    auto nextStatus = std::chrono::steady_clock::now() + options_.statusInterval;
    bool wasPaused = false;
    if (events.onMessage && accumulator_) {
        events.onMessage("computing with the " + computePlan_.summary());
        for (const std::string& reason : computePlan_.passedOver)
            events.onMessage("passed over: " + reason);
    }
    while (!stop.load() && !controls.stop.load() && replica_->epoch() < stopAt) {
        const bool running = obey(controls, events);
        if (!running) {
            if (!wasPaused)
                throughput.pause(collab::ThroughputEstimator::Clock::now());
            wasPaused = true;
            std::this_thread::sleep_for(50ms);
            continue;
        }
        if (wasPaused) {
            throughput.resume(collab::ThroughputEstimator::Clock::now());
            wasPaused = false;
        }
        if (events.onStatus && std::chrono::steady_clock::now() >= nextStatus) {
            nextStatus = std::chrono::steady_clock::now() + options_.statusInterval;
            events.onStatus(link_->status(),
                            accumulator_ ? static_cast<std::uint64_t>(accumulator_->samples()) : 0);
        }
        if (std::optional<collab::TrainingState> state = link_->takeState()) {
            inFlight_.reset(); // the others moved on: a round of this peer's (if any) is history
            held_.reset();
            try {
                replica_->importState(*state, "the downloaded state");
                if (accumulator_)
                    accumulator_->reset();
                EpochReport report;
                report.epoch = replica_->epoch();
                report.stateLoaded = true;
                report.parametersSha256 = replica_->parameterSha256();
                if (events.onEpoch)
                    events.onEpoch(report);
            } catch (const std::exception& e) {
                if (events.onMessage)
                    events.onMessage(std::string("refused a downloaded state: ") + e.what());
            }
            offerState(); // also tells the collaboration thread the state was dealt with
            continue;
        }
        if (inFlight_ && inFlight_->outcome.wait_for(0s) == std::future_status::ready) {
            if (std::optional<EpochReport> report = finishDelayedRound())
                epochEnded(*report, events);
            continue;
        }
        if (std::optional<FormedGroup> group = link_->takeGroup()) {
            if (delayedUpdates()) {
                beginDelayedRound(std::move(*group));
                continue; // computing the next batch meanwhile
            }
            throughput.pause(collab::ThroughputEstimator::Clock::now());
            EpochReport report = averageAndStep(*group);
            throughput.resume(collab::ThroughputEstimator::Clock::now());
            if (!report.regrouped) // else no step, no epoch: the link logged why and looks for a group again
                epochEnded(report, events);
            continue;
        }
        if (accumulator_) {
            if (std::chrono::steady_clock::now() < restUntil_) {
                // The duty cycle's rest after the last micro-batch. A pause or a stop ends the wait at once,
                // and a group or a state to take too (resting through a group's round would miss it: the
                // limited peer averaged in no group, its batch was lost to the state it then had to load, and
                // its share fell to 0 %), and a delayed round's outcome to step with; what is left of the
                // rest is still owed before the next micro-batch. (With delayed updates the thread computes
                // on after taking a group: a rest cut short at each epoch had volunteers at 4 % compute 4.4 %
                // of the time, docs/soak.md.)
                while (std::chrono::steady_clock::now() < restUntil_ && !controls.paused.load() &&
                       !controls.stop.load() && !stop.load() && !link_->hasWaiting() &&
                       !(inFlight_ && inFlight_->outcome.wait_for(0s) == std::future_status::ready))
                    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
                        50ms, restUntil_ - std::chrono::steady_clock::now()));
                continue;
            }
            const std::int64_t samples = accumulator_->accumulate(*replica_);
            // The micro-batch's own time, not a core's start or a parameter load: the duty cycle's rest is
            // a multiple of it, and a rest the length of a start would miss the group's round.
            const std::chrono::duration<double> computed(accumulator_->lastComputeSeconds());
            for (const std::string& message : accumulator_->takeMessages())
                if (events.onMessage)
                    events.onMessage(message);
            if (samples == 0)
                continue; // the core failed or waits for its restart: nothing to report, no rest
            computeSeconds_ += std::chrono::duration<double>(computed).count();
            const double duty = controls.dutyCycle.load() > 0.0 ? std::min(controls.dutyCycle.load(), 1.0)
                                                                : options_.dutyCycle;
            // Rest so that computing takes `duty` of the time (above, before the next micro-batch).
            if (duty < 1.0)
                restUntil_ =
                    std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::nanoseconds>(computed * (1.0 / duty - 1.0));
            throughput.recordSamples(static_cast<double>(samples), collab::ThroughputEstimator::Clock::now());
            reportProgress(throughput.samplesPerSecond());
        } else {
            std::this_thread::sleep_for(20ms);
        }
    }
    // A delayed round still under way ends (within its own deadlines) and steps, as a synchronous one would
    // have before the loop could end.
    while (inFlight_ && link_) { // the gradient round, then the state round when one follows
        inFlight_->outcome.wait();
        if (std::optional<EpochReport> report = finishDelayedRound())
            epochEnded(*report, events);
    }
    inFlight_.reset();
    if (!options_.stateDir.isEmpty() && replica_->epoch() != lastCheckpointEpoch_)
        saveCheckpoint();
    return replica_->epoch();
}

void CollaborativePeer::reportProgress(double samplesPerSecond) {
    // While a delayed round runs, what accumulates is the next epoch's: reported once the step is done.
    // While a gradient waits to be sent again (its group fell apart), that batch is this epoch's.
    if (!accumulator_ || inFlight_)
        return;
    const std::int64_t samples = held_ ? held_->report.localSamples : accumulator_->samples();
    link_->reportProgress(
        GradientAttack::believedSamples(options_.attack, static_cast<std::uint64_t>(samples)),
        samplesPerSecond);
}

void CollaborativePeer::epochEnded(EpochReport& report, const Events& events) {
    const auto now = std::chrono::steady_clock::now();
    report.computeSeconds = computeSeconds_;
    report.wallSeconds = std::chrono::duration<double>(now - lastEpochAt_).count();
    report.dataWaitSeconds = accumulator_ ? accumulator_->takeDataWaitSeconds() : 0.0;
    computeSeconds_ = 0.0;
    lastEpochAt_ = now;
    if (!options_.stateDir.isEmpty() && options_.checkpointEvery > 0 &&
        replica_->epoch() >= lastCheckpointEpoch_ + static_cast<std::uint64_t>(options_.checkpointEvery))
        saveCheckpoint();
    if (events.onEpoch)
        events.onEpoch(report);
}

EpochReport CollaborativePeer::reportFor(const FormedGroup& group) const {
    EpochReport report;
    const std::int64_t samples = accumulator_ ? accumulator_->samples() : 0;
    report.localSamples = samples;
    report.localTokens = accumulator_ ? accumulator_->tokens() : 0;
    report.localLoss = accumulator_ ? accumulator_->meanLoss() : 0.0;
    report.weight = static_cast<double>(samples);
    const std::int64_t vectorSize = group.group.vectorSize;
    for (std::size_t i = 0; i < group.group.members.size(); ++i) {
        const collab::GroupMember& member = group.group.members[i];
        const double share =
            vectorSize > 0 ? static_cast<double>(group.group.spanCounts[i]) / vectorSize : 0.0;
        report.members.push_back(
            {hex(member.peerId), roleName(member.role), share, member.weight, member.bandwidth});
        if (member.peerId == link_->peerId())
            report.share = share;
    }
    report.vectorSize = vectorSize;
    report.led = group.leader;
    return report;
}

bool CollaborativePeer::delayedUpdates() const {
    // Only a peer that computes gradients has a next batch to compute meanwhile.
    return options_.manifest.training.delayedUpdates && accumulator_ &&
           options_.link.role != wire::ROLE_AUXILIARY;
}

bool CollaborativePeer::averagesStateAt(std::uint64_t epoch) const {
    const std::int64_t every = options_.manifest.training.parameterAveragingEvery;
    return every > 0 && (epoch + 1) % static_cast<std::uint64_t>(every) == 0;
}

std::vector<float> CollaborativePeer::gradientFor(const FormedGroup& group, double& weight) const {
    std::vector<float> gradient =
        accumulator_ ? accumulator_->gradientVector(replica_->lossOffset())
                     : std::vector<float>(static_cast<std::size_t>(replica_->averagedVectorSize()), 0.0f);
    GradientAttack::apply(options_.attack, gradient, group.group.epoch);
    const std::int64_t samples = accumulator_ ? accumulator_->samples() : 0;
    weight = static_cast<double>(
        GradientAttack::claimedSamples(options_.attack, static_cast<std::uint64_t>(samples)));
    return gradient;
}

EpochReport CollaborativePeer::averageAndStep(FormedGroup& group) {
    EpochReport report = reportFor(group);
    if (options_.link.role == wire::ROLE_AUXILIARY) {
        // Aggregates its span of both rounds, holds neither result: it only moves on with the group.
        const RoundOutcome gradients = link_->average(group, {}, 0.0, false);
        if (gradients.regroup) {
            report.regrouped = true;
            report.epoch = replica_->epoch();
            link_->epochCompleted(replica_->epoch(), nullptr);
            return report;
        }
        report.roundSeconds = gradients.seconds;
        report.complete = gradients.complete;
        if (averagesStateAt(group.group.epoch) && !gradients.alone)
            report.roundSeconds += link_->average(group, {}, 0.0, true).seconds;
        if (!gradients.alone)
            replica_->followEpoch();
        report.epoch = replica_->epoch();
        link_->epochCompleted(replica_->epoch(), nullptr);
        return report;
    }
    double weight = 0.0;
    std::vector<float> gradient = gradientFor(group, weight);
    return finishEpoch(group, std::move(report), link_->average(group, std::move(gradient), weight, false),
                       false);
}

void CollaborativePeer::beginDelayedRound(FormedGroup group) {
    DelayedRound round;
    if (held_ && held_->group.group.epoch == group.group.epoch) {
        // The batch whose group fell apart: its gradient again, whatever accumulated since.
        round = std::move(*held_);
        const EpochReport batch = round.report;
        round.report = reportFor(group);
        round.report.localSamples = batch.localSamples;
        round.report.localTokens = batch.localTokens;
        round.report.localLoss = batch.localLoss;
        round.report.weight = batch.weight;
    } else {
        round.report = reportFor(group);
        round.gradient = gradientFor(group, round.weight);
        // The next batch starts now, on these parameters; its micro-batches are not reported while the
        // round runs (the collaboration's records would count them toward this epoch).
        accumulator_->reset();
    }
    held_.reset();
    round.group = std::move(group);
    link_->restartAccumulation();
    round.outcome = link_->beginAverage(round.group, round.gradient, round.weight, false);
    inFlight_ = std::move(round);
}

std::optional<EpochReport> CollaborativePeer::finishDelayedRound() {
    DelayedRound round = std::move(*inFlight_);
    inFlight_.reset();
    RoundOutcome outcome;
    try {
        outcome = round.outcome.get();
    } catch (const std::future_error&) {
        return std::nullopt; // the link left meanwhile (a pause, a new address): nothing to step with
    }
    if (round.stateRound) {
        // The state round after the step ended: the averaged state in, the epoch done.
        takeStateRound(round.report, outcome);
        round.report.samplesDuringRound = accumulator_->samples();
        return concludeEpoch(std::move(round.report), true);
    }
    if (outcome.regroup) {
        round.outcome = {};
        held_ = std::move(round);
        offerState(); // tells the collaboration thread the group was dealt with
        return std::nullopt;
    }
    if (!stepWith(round.report, outcome))
        return round.report;
    if (!outcome.alone && averagesStateAt(round.group.group.epoch)) {
        // The state round averages the stepped parameters; computing goes on through it as well, and the
        // collaboration forms no other group before it ends (the epoch is not completed until then).
        auto [state, weight] = stateToSend();
        round.stateRound = true;
        round.gradient.clear();
        round.outcome = link_->beginAverage(round.group, std::move(state), weight, true);
        inFlight_ = std::move(round);
        return std::nullopt;
    }
    round.report.samplesDuringRound = accumulator_->samples();
    return concludeEpoch(std::move(round.report), true);
}

EpochReport CollaborativePeer::finishEpoch(FormedGroup& group, EpochReport report, RoundOutcome outcome,
                                           bool delayed) {
    if (!stepWith(report, outcome))
        return report;
    if (!outcome.alone && averagesStateAt(group.group.epoch)) {
        auto [state, weight] = stateToSend();
        takeStateRound(report, link_->average(group, std::move(state), weight, true));
    }
    return concludeEpoch(std::move(report), delayed);
}

bool CollaborativePeer::stepWith(EpochReport& report, const RoundOutcome& outcome) {
    if (outcome.regroup) {
        // No step: the gradient stays accumulated (or held, with delayed updates) for the group this peer
        // looks for again.
        report.regrouped = true;
        report.epoch = replica_->epoch();
        offerState(); // tells the collaboration thread the group was dealt with
        return false;
    }
    report.alone = outcome.alone;
    report.complete = outcome.complete;
    report.roundSeconds = outcome.seconds;
    report.bytesSent = outcome.bytesSent;
    report.bytesReceived = outcome.bytesReceived;
    report.pacedConnections = outcome.pacedConnections;
    noteProblems(outcome, report);
    for (std::size_t i = 0; i < outcome.countedWeights.size() && i < report.members.size(); ++i)
        report.members[i].counted = outcome.countedWeights[i];
    if (outcome.alone && report.localSamples == 0) {
        // Nobody to average with and nothing learnt: no step (the epoch stays, the others lead).
        report.epoch = replica_->epoch();
        offerState();
        return false;
    }
    report.loss = replica_->averagedLoss(outcome.values);
    const ModelReplica::StepOutcome step = replica_->applyAveragedGradient(outcome.values);
    report.applied = step.applied;
    if (step.applied && !replica_->parametersFinite() && lastGood_) {
        // The step left non-finite parameters: back to the state this epoch began with (what this peer
        // last served), moving on with the group's epoch.
        collab::TrainingState good = *lastGood_;
        good.epoch = replica_->epoch();
        good.step = static_cast<std::int64_t>(good.epoch);
        replica_->importState(good, "the last good state");
        report.applied = false;
        report.restored = true;
    }
    report.learningRate = step.learningRate;
    report.gradientNorm = step.gradientNorm;
    return true;
}

std::pair<std::vector<float>, double> CollaborativePeer::stateToSend() const {
    std::vector<float> state = replica_->stateVector();
    GradientAttack::applyToState(options_.attack, state, replica_->parameterCount());
    return {std::move(state), GradientAttack::stateWeight(options_.attack)};
}

void CollaborativePeer::takeStateRound(EpochReport& report, const RoundOutcome& parameters) {
    noteProblems(parameters, report);
    if (parameters.complete) {
        try {
            replica_->setStateVector(parameters.values);
            report.parametersAveraged = true;
        } catch (const std::invalid_argument& e) {
            // Every part was checked on arrival; should a bad state get through all the same, this
            // peer keeps its own (the group's step is in it) rather than stop training.
            report.problems.push_back(std::string("the averaged state was refused (") + e.what() +
                                      "): this peer keeps its own");
        }
    }
    report.roundSeconds += parameters.seconds;
    report.bytesSent += parameters.bytesSent;
    report.bytesReceived += parameters.bytesReceived;
    report.pacedConnections += parameters.pacedConnections;
}

EpochReport CollaborativePeer::concludeEpoch(EpochReport report, bool delayed) {
    // With delayed updates the accumulator holds the next batch, computed meanwhile: kept, and reported
    // at the new epoch from the next micro-batch on.
    if (accumulator_ && !delayed)
        accumulator_->reset();
    if (!delayed)
        link_->restartAccumulation();
    offerState();
    const LinkStatus status = link_->status();
    report.epoch = replica_->epoch();
    report.samplesPerSecond = status.global.samplesPerSecond;
    report.bandwidthMbps = status.bandwidthBytesPerSecond * 8.0 / 1e6;
    report.parametersSha256 = replica_->parameterSha256();
    if (!status.lastProblem.empty())
        report.problems.push_back(status.lastProblem);
    return report;
}

} // namespace sahaj::engine
