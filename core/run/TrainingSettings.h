#pragma once

#include "core/optim/LambOptions.h"
#include "core/text/CorpusReader.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace sahaj::run {

// How averaged tensors are encoded between peers.
enum class WireDtype {
    Fp16, // what sahajBERT used for everything
    Int8, // 8-bit quantisation: a quarter of fp32's traffic, for slow links
};

// How aggregators combine the members' parts of their span.
enum class Aggregation {
    Mean,         // the weighted mean: exact, what sahajBERT used
    CenteredClip, // BTARD's CenteredClip: a minority of attackers cannot drag the result far
};

// The `training` section of a run manifest: what every peer must do alike so that all replicas apply the
// same step. The defaults are the sahajBERT recipe (docs/training.md, and hivemind's ALBERT example for the
// schedule length); the manifest's JSON names are in the comments.
struct TrainingSettings {
    std::int64_t targetBatchSize = 4096; // target_batch_size: samples per global step, over all peers
    std::int64_t sequenceLength = 512;   // sequence_length, in tokens
    double mlmProbability = 0.15;        // mlm_probability
    // documents: "lines" or "paragraphs" (CorpusReaderOptions::documentsName)
    text::PlainTextDocuments documents = text::PlainTextDocuments::LinePerDocument;
    // lr, betas [beta1, beta2], eps, weight_decay, clamp_value, debias (`adam` is not part of a run).
    optim::LambOptions lamb;
    std::int64_t warmupSteps = 5000;  // warmup_steps, in global steps
    std::int64_t totalSteps = 125000; // total_steps: where the linear decay reaches 0
    double clipNorm = 1.0;            // clip_norm: global gradient-norm clip
    // max_epochs: the run ends after this many global steps; a manifest that omits it means total_steps.
    std::int64_t maxEpochs = 125000;
    // parameter_averaging_every: average the parameters every K epochs, healing drift from failed rounds.
    std::int64_t parameterAveragingEvery = 5;
    WireDtype wireDtype = WireDtype::Fp16;       // wire_dtype: "fp16" or "int8"
    Aggregation aggregation = Aggregation::Mean; // aggregation: "mean" or "centered_clip"
    // centered_clip_tau_factor: the clipping radius as a multiple of the senders' median distance from
    // their coordinate-wise median; centered_clip_iterations: at most this many clipping steps.
    double centeredClipTauFactor = 1.0;
    std::int64_t centeredClipIterations = 20;
    // delayed_updates: a peer averages a batch's gradient while it computes the next one, and applies the
    // step when the round ends, one batch late (docs/collaboration.md, "Delayed parameter updates").
    bool delayedUpdates = false;

    // The manifest names of the wire encodings: "fp16" and "int8".
    static QString wireDtypeName(WireDtype dtype);
    static std::optional<WireDtype> wireDtypeFromName(const QString& name);
    // The manifest names of the aggregation rules: "mean" and "centered_clip".
    static QString aggregationName(Aggregation aggregation);
    static std::optional<Aggregation> aggregationFromName(const QString& name);

    // Field by field; LambOptions has no comparison of its own.
    bool operator==(const TrainingSettings& other) const;
};

} // namespace sahaj::run
