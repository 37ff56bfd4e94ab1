#pragma once

#include "core/array/SafeTensorsImage.h"
#include "core/collab/AllReduceRound.h"
#include "core/collab/TrainingState.h"
#include "core/engine/StateFit.h"
#include "core/model/AlbertConfig.h"
#include "core/model/AlbertParameterLayout.h"
#include "core/optim/LinearWarmupSchedule.h"
#include "core/optim/ParameterSegment.h"
#include "core/run/TrainingSettings.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sahaj::optim {
class FlatLamb;
}

namespace sahaj::engine {

// This peer's copy of the shared model: the parameters, LAMB's state and the global epoch, with the
// operations the collaboration applies to them. Every peer of a run builds it from the same seed, so all
// replicas start equal; they stay equal because every step applies the same averaged gradient with the
// same arithmetic (the learning rate follows the global epoch, not a local counter).
//
// The parameters that count are a flat fp32 vector held here, and the step is optim::FlatLamb's plain C++
// on it, whose bits do not depend on the CPU: a step through ATen's kernels would not be the same on two
// peers whose CPUs pick different kernels (AVX-512, AVX2, none), and their replicas would drift apart
// between state averagings (docs/training.md, "bit-identical steps"). No tensor is held here: a compute
// core holds the model and computes gradients with a copy of these values (docs/compute-cores.md).
//
// The flat vector the group averages is every parameter's gradient in the layout's order
// (model::AlbertParameterLayout, the model's named_parameters()), then one extra value: the peer's mean
// training loss, so that averaging also yields the batch's loss.
//
// Owned by the training thread.
class ModelReplica {
public:
    // initSeed: the run's (all peers must pass the same). Throws std::invalid_argument for a bad config.
    ModelReplica(const model::AlbertConfig& config, const run::TrainingSettings& settings,
                 std::uint64_t initSeed);
    ~ModelReplica();
    ModelReplica(const ModelReplica&) = delete;
    ModelReplica& operator=(const ModelReplica&) = delete;

    const model::AlbertConfig& config() const { return config_; }
    const std::vector<model::ParameterLayoutEntry>& layout() const { return layout_; }
    std::uint64_t epoch() const { return epoch_; }
    // The parameters in the layout's order, and a count of their changes: a compute core that holds an
    // older generation is handed the values again.
    std::span<const float> parameters() const { return parameters_; }
    std::uint64_t generation() const { return generation_; }
    std::int64_t parameterCount() const { return parameterCount_; }
    // parameterCount() + 1: the gradient and the loss.
    std::int64_t averagedVectorSize() const { return parameterCount_ + 1; }

    // The batch's mean loss from an averaged vector.
    double averagedLoss(const std::vector<float>& averaged) const { return averaged.back() + lossOffset(); }
    // The loss of an untrained model, ln(vocabulary) + ln 2: the loss travels as its difference from this,
    // so that fp16 on the wire keeps it to about a thousandth instead of a hundredth.
    double lossOffset() const;

    struct StepOutcome {
        bool applied = false;      // false: the gradient was not finite, nothing changed
        double gradientNorm = 0.0; // before clipping
        double learningRate = 0.0;
    };
    // Applies one optimiser step with the averaged gradient (averagedVectorSize() values) and moves to
    // epoch + 1. A non-finite gradient skips the update (the epoch still advances with the group). The
    // caller checks parametersFinite() after it and restores its last good state if need be.
    StepOutcome applyAveragedGradient(const std::vector<float>& averaged);

    // An auxiliary aggregates without holding the averaged vector: it only follows the epoch count.
    void followEpoch() { ++epoch_; }

    // What periodic averaging heals (docs/protocol.md, "State averaging"): the parameters, then LAMB's first
    // and second moments, in named_parameters() order. Averaging the moments too matters: replicas whose
    // moments drifted apart (after a round that failed, or a group that split) would drift apart again at the
    // next step even from equal parameters.
    std::int64_t averagedStateSize() const { return 3 * parameterCount_; }
    std::vector<float> stateVector() const;
    // Throws std::invalid_argument for a vector of the wrong size or with non-finite values (nothing
    // changes then).
    void setStateVector(const std::vector<float>& values);
    // What every part of a state round must respect (collab::ValueFloor): LAMB's second moments, the
    // vector's last third, are never negative.
    std::vector<collab::ValueFloor> stateFloors() const;

    collab::TrainingState exportState() const;
    // The parameters as fp32 arrays by name: a Hugging Face model file's content (ModelDirectoryWriter).
    array::SafeTensorsImage::Arrays parameterArrays() const;
    // Throws std::runtime_error naming `origin` when the state does not fit this model and optimiser
    // (stateFit()); nothing changes then.
    void importState(const collab::TrainingState& state, const std::string& origin);
    // What importState checks, for another thread to check a state with before it hands it over.
    std::shared_ptr<const StateFit> stateFit() const { return fit_; }

    // SHA-256 of the parameters' fp32 bytes in named_parameters() order, lowercase hex: equal on two
    // peers exactly when their replicas are bit-identical.
    std::string parameterSha256() const;
    // Hash of the parameter names, shapes and dtypes and the run's identity: peers differing in it never
    // group (MatchmakingOptions::schemaHash, StateSnapshot). 64 hex digits.
    std::string schemaHash(const std::string& runIdentity) const;
    bool parametersFinite() const;

private:
    model::AlbertConfig config_;
    std::vector<model::ParameterLayoutEntry> layout_;
    std::vector<optim::ParameterSegment> segments_; // the layout's order
    std::vector<std::vector<std::int64_t>> shapes_; // each segment's tensor shape
    std::shared_ptr<const StateFit> fit_;
    std::vector<float> parameters_;
    std::uint64_t generation_ = 0;
    std::unique_ptr<optim::FlatLamb> optimizer_;
    run::TrainingSettings settings_;
    optim::LinearWarmupSchedule schedule_;
    std::int64_t parameterCount_ = 0;
    std::uint64_t epoch_ = 0;
};

} // namespace sahaj::engine
