#pragma once

#include "core/optim/LinearWarmupSchedule.h"
#include "core/text/StreamPosition.h"
#include "core/train/LocalTrainerOptions.h"
#include "core/train/TrainingCheckpoint.h"
#include "core/train/TrainingStepReport.h"

#include <c10/core/Device.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace sahaj::compute {
struct TokenBatch;
}

namespace sahaj::text {
class PretrainingStream;
class Tokenizer;
} // namespace sahaj::text

namespace sahaj::model {
class AlbertForPreTraining;
}

namespace sahaj::train {

class Lamb;
class TrainingLog;

// Trains a model on this machine alone: draws batches of batchSize samples from the pretraining stream,
// accumulates the gradient over micro-batches, clips it, and steps LAMB on the warmup/decay schedule, with
// a per-step log (outputDir/log.jsonl) and atomic checkpoints (TrainingCheckpoint).
//
// Accumulation: the step's loss is the MLM loss averaged over every masked token of the whole batch plus
// the SOP loss averaged over its samples, exactly what one pass over the batch would compute. Each
// micro-batch contributes its summed losses divided by the batch's totals, so the micro-batch size changes
// memory use, not the gradient (up to float rounding).
//
// Reproducibility: the model is initialised from the seed, the data stream is a function of the seed and
// its saved position, and torch's generator is reseeded from (seed, step) before every step, so a run
// resumed from a checkpoint repeats the uninterrupted run's losses bit for bit (same machine, same threads).
class LocalTrainer {
public:
    struct Callbacks {
        std::function<void(const TrainingStepReport&)> onStep;
        std::function<void(std::int64_t step, const std::filesystem::path& directory)> onCheckpoint;
    };

    struct Result {
        std::int64_t step = 0;    // global step reached
        bool interrupted = false; // stopped by the stop flag before reaching options.steps
    };

    // Validates the options (std::invalid_argument), checks the device (std::runtime_error when CUDA is
    // asked for but absent), reads the tokenizer, builds the model and the optimiser, and with
    // options.resume loads outputDir's checkpoint after checking that it belongs to the same run (config,
    // seed, batch and sequence sizes, hyperparameters: std::runtime_error naming the difference). Without
    // resume, an outputDir that already holds a checkpoint is refused rather than overwritten.
    explicit LocalTrainer(LocalTrainerOptions options);
    ~LocalTrainer();
    LocalTrainer(const LocalTrainer&) = delete;
    LocalTrainer& operator=(const LocalTrainer&) = delete;

    // Trains up to options.steps. The stop flag is polled between micro-batches: when it is set, the step
    // in progress is abandoned (its samples are drawn again on resume), a checkpoint of the last completed
    // step is saved, and run() returns with interrupted = true. The flag may be set from a signal handler.
    Result run(const std::atomic<bool>& stopRequested, const Callbacks& callbacks = {});

    const LocalTrainerOptions& options() const { return options_; }
    std::int64_t step() const { return step_; }
    // The step the run started from: 0, or the checkpoint's step after a resume.
    std::int64_t startStep() const { return startStep_; }
    const c10::Device& device() const { return device_; }
    std::int64_t parameterCount() const;

    // Fails unless the checkpoint describes the same run as the options (what --resume must preserve for an
    // exact continuation). Public for the command line, which checks before building anything.
    static void checkResumable(const LocalTrainerOptions& options, const TrainingCheckpointInfo& info);

private:
    struct StepTotals;

    static c10::Device resolveDevice(const std::string& name);
    // Returns false when the stop flag interrupted the step.
    bool trainStep(const std::atomic<bool>& stopRequested, TrainingStepReport& report);
    void accumulate(const compute::TokenBatch& batch, std::int64_t begin, std::int64_t end,
                    std::int64_t batchSamples, std::int64_t batchMasked, StepTotals& totals);
    void saveCheckpoint(const Callbacks& callbacks);
    // (Re)opens the data stream at position_.
    void openStream();
    TrainingCheckpointInfo checkpointInfo() const;

    LocalTrainerOptions options_;
    c10::Device device_;
    std::unique_ptr<text::Tokenizer> tokenizer_;
    std::unique_ptr<model::AlbertForPreTraining> model_;
    std::unique_ptr<Lamb> optimizer_;
    std::unique_ptr<text::PretrainingStream> stream_;
    std::unique_ptr<TrainingLog> log_;
    optim::LinearWarmupSchedule schedule_;
    std::int64_t step_ = 0;
    std::int64_t startStep_ = 0;
    std::int64_t lastCheckpointStep_ = -1;
    // The stream position after the last completed step: what a checkpoint records.
    text::StreamPosition position_;
};

} // namespace sahaj::train
