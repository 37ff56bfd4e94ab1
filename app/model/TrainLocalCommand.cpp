#include "app/model/TrainLocalCommand.h"

#include "app/model/DeviceOption.h"
#include "app/node/CommandLine.h"
#include "app/node/CorpusDocumentsOption.h"
#include "app/node/StopSignalScope.h"
#include "app/node/TokenizerOption.h"
#include "app/node/UsageError.h"
#include "core/model/AlbertConfig.h"
#include "core/model/ComputeThreads.h"
#include "core/train/LocalTrainer.h"
#include "core/train/TrainingCheckpoint.h"
#include "core/train/TrainingLog.h"

#include <QDir>
#include <QTextStream>

#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <optional>
#include <stdexcept>

namespace sahaj::node {

QString TrainLocalCommand::description() const {
    return QStringLiteral(
        "Train a model on this machine alone, with the sahajBERT recipe (LAMB, linear warmup and decay,\n"
        "gradient clipping at 1.0). Each step takes --batch samples, accumulated in micro-batches of\n"
        "--micro-batch. Progress lines are key=value fields; DIR/log.jsonl records every step, and\n"
        "DIR/checkpoint holds the latest checkpoint (config.json, model.safetensors, optimizer.safetensors,\n"
        "optimizer.json), written atomically every --checkpoint-every steps, at the end, and on Ctrl-C.\n"
        "--resume continues DIR's run exactly: the config, seed, batch, sequence length and hyperparameters\n"
        "come from the checkpoint and must match when given.");
}

void TrainLocalCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOptions({
        {"config", "Model config: tiny, small or sahajbert (from the checkpoint with --resume).", "NAME"},
        {"corpus", "Training text: one document per line, or .jsonl with a \"text\" field.", "PATH"},
        {"steps", "Train until this global step (a resumed run continues up to it).", "N"},
        {"batch", "Samples per optimiser step (from the checkpoint with --resume).", "B"},
        {"seq", "Sequence length in tokens (from the checkpoint with --resume).", "L"},
        {"micro-batch",
         "Samples per forward/backward pass; the gradient is accumulated (default: B, or the checkpoint's).",
         "M"},
        {"seed", "Seed of the initial weights, the data order and masking (default: 0).", "S"},
        {"out", "Output folder: log.jsonl and checkpoint/.", "DIR"},
        {"resume", "Continue the run whose checkpoint is in DIR."},
        {"lr", "Peak learning rate (default: 1.76e-3).", "X"},
        {"warmup", "Linear warmup steps (default: 5000).", "W"},
        {"schedule-steps", "Step where the linear decay reaches 0 (default: --steps).", "T"},
        {"checkpoint-every", "Save a checkpoint every K steps; 0: only at the end (default: 100).", "K"},
        {"log-every", "Print a progress line every K steps (default: 1).", "K"},
        {"threads", "CPU threads for torch (default: torch's choice); keep it equal to resume bit for bit.",
         "N"},
    });
    CorpusDocumentsOption::add(parser);
    DeviceOption::add(parser);
    TokenizerOption::add(parser,
                         "tokenizer.json (default: the sahajBERT tokenizer in the shared data folder).");
}

int TrainLocalCommand::run(const QCommandLineParser& parser) {
    using train::LocalTrainerOptions;
    constexpr long long kMaxCount = std::numeric_limits<int>::max();

    LocalTrainerOptions o;
    o.resume = parser.isSet("resume");
    o.outputDir = QDir(CommandLine::requiredValue(parser, "out")).absolutePath().toStdString();

    // With --resume the run's identity comes from its checkpoint; given values must agree with it.
    std::optional<train::TrainingCheckpointInfo> saved;
    if (o.resume) {
        if (!train::TrainingCheckpoint::exists(o.outputDir))
            throw UsageError("--resume: no checkpoint in '" + o.outputDir.string() + "'");
        saved = train::TrainingCheckpoint::readInfo(o.outputDir);
    }

    o.configName = saved && !parser.isSet("config")
                       ? saved->configName
                       : CommandLine::requiredValue(parser, "config").toStdString();
    try {
        o.config = model::AlbertConfig::named(o.configName);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--config: ") + e.what());
    }
    o.corpusPath =
        CommandLine::existingFile("corpus", CommandLine::requiredValue(parser, "corpus")).toStdString();
    o.documents = CorpusDocumentsOption::value(parser, saved ? saved->documents : o.documents);
    o.steps = CommandLine::integerValue(parser, "steps", 0, 1, kMaxCount);
    if (!parser.isSet("steps"))
        throw UsageError("missing required option --steps");
    const auto fromCheckpoint = [&](const QString& option, long long savedValue, long long min,
                                    long long max) {
        if (saved && !parser.isSet(option))
            return savedValue;
        if (!parser.isSet(option))
            throw UsageError("missing required option --" + option.toStdString());
        return CommandLine::integerValue(parser, option, 0, min, max);
    };
    o.batchSize = fromCheckpoint("batch", saved ? saved->batchSize : 0, 1, kMaxCount);
    o.sequenceLength =
        fromCheckpoint("seq", saved ? saved->sequenceLength : 0, 5, o.config.maxPositionEmbeddings);
    // The micro-batch size changes the order of the gradient sums, so an exact resume keeps the saved one.
    o.microBatchSize = CommandLine::integerValue(
        parser, "micro-batch", saved ? std::min(saved->microBatchSize, o.batchSize) : 0, 1, o.batchSize);
    if (parser.isSet("seed")) {
        bool ok = false;
        o.seed = parser.value("seed").toULongLong(&ok);
        if (!ok)
            throw UsageError("--seed must be a non-negative integer, got '" +
                             parser.value("seed").toStdString() + "'");
    } else if (saved) {
        o.seed = saved->seed;
    }

    o.device = DeviceOption::value(parser);

    if (saved) {
        o.lamb = saved->lamb;
        o.warmupSteps = saved->warmupSteps;
        o.scheduleSteps = saved->scheduleSteps;
        o.clipNorm = saved->clipNorm;
    }
    o.lamb.learningRate = CommandLine::realValue(parser, "lr", o.lamb.learningRate, 0.0, 1e3);
    if (parser.isSet("lr") && !(o.lamb.learningRate > 0.0))
        throw UsageError("--lr must be positive");
    o.warmupSteps = CommandLine::integerValue(parser, "warmup", o.warmupSteps, 0, kMaxCount);
    o.scheduleSteps =
        CommandLine::integerValue(parser, "schedule-steps", saved ? o.scheduleSteps : o.steps, 1, kMaxCount);
    if (o.scheduleSteps < o.steps)
        throw UsageError("the learning-rate schedule ends at step " + std::to_string(o.scheduleSteps) +
                         ", before --steps " + std::to_string(o.steps) +
                         " (the rate would be 0 after it); start the run with a larger --schedule-steps");
    o.checkpointEvery = CommandLine::integerValue(parser, "checkpoint-every", 100, 0, kMaxCount);
    o.logEvery = CommandLine::integerValue(parser, "log-every", 1, 1, kMaxCount);
    const long long threads = CommandLine::integerValue(parser, "threads", 0, 1, 1024);
    model::setComputeThreads(static_cast<int>(threads));

    o.tokenizerPath = TokenizerOption::value(parser).toStdString();

    try {
        o.validate();
        if (saved)
            train::LocalTrainer::checkResumable(o, *saved);
    } catch (const std::exception& e) {
        throw UsageError(e.what());
    }

    train::LocalTrainer trainer(o);
    QTextStream& out = CommandLine::out();
    out << "train-local: config=" << QString::fromStdString(o.configName)
        << " parameters=" << trainer.parameterCount() << " device=" << QString::fromStdString(o.device)
        << " threads=" << at::get_num_threads() << " batch=" << o.batchSize
        << " micro_batch=" << o.effectiveMicroBatchSize() << " seq=" << o.sequenceLength
        << " lr=" << o.lamb.learningRate << " warmup=" << o.warmupSteps
        << " schedule_steps=" << o.effectiveScheduleSteps() << " seed=" << o.seed << "\n";
    if (o.resume)
        out << "resumed step=" << trainer.startStep()
            << " from=" << QString::fromStdString(train::TrainingCheckpoint::directory(o.outputDir).string())
            << "\n";
    if (trainer.startStep() >= o.steps)
        out << "nothing to do: the run is already at step " << trainer.startStep() << "\n";
    out.flush();

    train::LocalTrainer::Callbacks callbacks;
    callbacks.onStep = [&](const train::TrainingStepReport& report) {
        if (report.step % o.logEvery == 0 || report.step == o.steps || report.skipped) {
            out << train::TrainingLog::progressLine(report) << "\n";
            out.flush();
        }
    };
    callbacks.onCheckpoint = [&](std::int64_t step, const std::filesystem::path& directory) {
        out << "checkpoint step=" << step << " path=" << QString::fromStdString(directory.string()) << "\n";
        out.flush();
    };

    const StopSignalScope signals;
    const train::LocalTrainer::Result result = trainer.run(StopSignalScope::requested(), callbacks);
    if (result.interrupted)
        out << "interrupted step=" << result.step << " (checkpoint saved; continue with --resume)\n";
    else
        out << "done step=" << result.step << "\n";
    out.flush();
    return 0;
}

} // namespace sahaj::node
