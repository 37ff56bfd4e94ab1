#include "core/train/LocalTrainer.h"

#include "core/model/AlbertForPreTraining.h"
#include "core/model/AutocastGuard.h"
#include "core/model/BatchTensors.h"
#include "core/model/PreTrainingLoss.h"
#include "core/text/PortableRandom.h"
#include "core/text/PretrainingStream.h"
#include "core/text/Tokenizer.h"
#include "core/train/GradientClipping.h"
#include "core/train/Lamb.h"
#include "core/train/ParameterGrouping.h"
#include "core/train/TrainingLog.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace sahaj::train {

namespace {

// Separates the per-step seeds from every other use of the run's seed.
constexpr std::uint64_t kStepSeedTag = 0x5354455053454544ULL; // "STEPSEED"

std::string describeDifference(const char* what, const std::string& requested, const std::string& saved) {
    return std::string("cannot resume: ") + what + " " + requested + " differs from the checkpoint's " +
           saved;
}

std::string exact(double value) {
    std::ostringstream s;
    s.precision(17);
    s << value;
    return s.str();
}

} // namespace

struct LocalTrainer::StepTotals {
    double mlmLossSum = 0.0; // sum over masked tokens of the per-token loss
    double sopLossSum = 0.0; // sum over samples
    std::int64_t mlmCorrect = 0;
    std::int64_t sopCorrect = 0;
};

LocalTrainer::LocalTrainer(LocalTrainerOptions options)
    : options_(std::move(options)), device_(c10::kCPU),
      schedule_(options_.lamb.learningRate, std::max<std::int64_t>(options_.warmupSteps, 0),
                std::max<std::int64_t>(options_.effectiveScheduleSteps(), 1)) {
    options_.validate();
    device_ = resolveDevice(options_.device);

    std::optional<TrainingCheckpointInfo> resumed;
    if (options_.resume) {
        resumed = TrainingCheckpoint::readInfo(options_.outputDir);
        checkResumable(options_, *resumed);
    } else if (TrainingCheckpoint::exists(options_.outputDir)) {
        throw std::runtime_error(
            options_.outputDir.string() +
            " already holds a training checkpoint; pass --resume to continue it, or choose "
            "another output folder");
    }

    tokenizer_ = std::make_unique<text::Tokenizer>(
        text::Tokenizer::fromFile(QString::fromStdString(options_.tokenizerPath.string())));
    if (tokenizer_->vocabSize() > options_.config.vocabSize)
        throw std::invalid_argument("the tokenizer has " + std::to_string(tokenizer_->vocabSize()) +
                                    " tokens but the model's vocabulary has only " +
                                    std::to_string(options_.config.vocabSize));

    // The initial weights are a function of the seed alone (a resume overwrites them anyway).
    at::manual_seed(options_.seed);
    model_ = std::make_unique<model::AlbertForPreTraining>(options_.config);
    (*model_)->to(device_);
    (*model_)->train();
    optimizer_ =
        std::make_unique<Lamb>(ParameterGrouping::split(**model_, options_.lamb.weightDecay), options_.lamb);

    if (resumed) {
        TrainingCheckpoint::load(options_.outputDir, *model_, *optimizer_);
        step_ = startStep_ = lastCheckpointStep_ = resumed->step;
        position_ = resumed->dataPosition;
    }
    openStream();

    fs::create_directories(options_.outputDir);
    log_ = std::make_unique<TrainingLog>(options_.outputDir / "log.jsonl",
                                         resumed ? std::optional<std::int64_t>(resumed->step) : std::nullopt);
}

LocalTrainer::~LocalTrainer() = default;

void LocalTrainer::openStream() {
    stream_.reset();
    text::PretrainingStreamOptions streamOptions;
    streamOptions.corpus.documents = options_.documents;
    stream_ = std::make_unique<text::PretrainingStream>(
        QString::fromStdString(options_.corpusPath.string()), *tokenizer_,
        static_cast<int>(options_.sequenceLength), static_cast<int>(options_.batchSize), options_.seed,
        streamOptions, position_);
}

c10::Device LocalTrainer::resolveDevice(const std::string& name) {
    if (name == "cpu")
        return c10::kCPU;
    if (!torch::cuda::is_available())
        throw std::runtime_error("device '" + name +
                                 "' requested, but this libtorch has no CUDA support or no CUDA device is "
                                 "visible; use --device cpu");
    const c10::Device device(name);
    const auto count = static_cast<std::int64_t>(torch::cuda::device_count());
    if (device.has_index() && device.index() >= count)
        throw std::runtime_error("device '" + name + "' does not exist: " + std::to_string(count) +
                                 " CUDA device(s) visible");
    return device;
}

void LocalTrainer::checkResumable(const LocalTrainerOptions& o, const TrainingCheckpointInfo& info) {
    const auto require = [](bool same, const std::string& message) {
        if (!same)
            throw std::runtime_error(message);
    };
    require(o.configName == info.configName,
            describeDifference("config", "'" + o.configName + "'", "'" + info.configName + "'"));
    require(o.seed == info.seed,
            describeDifference("seed", std::to_string(o.seed), std::to_string(info.seed)));
    require(o.batchSize == info.batchSize,
            describeDifference("batch size", std::to_string(o.batchSize), std::to_string(info.batchSize)));
    require(o.documents == info.documents,
            describeDifference("document layout",
                               text::CorpusReaderOptions::documentsName(o.documents).toStdString(),
                               text::CorpusReaderOptions::documentsName(info.documents).toStdString()));
    require(o.sequenceLength == info.sequenceLength,
            describeDifference("sequence length", std::to_string(o.sequenceLength),
                               std::to_string(info.sequenceLength)));
    const optim::LambOptions& a = o.lamb;
    const optim::LambOptions& b = info.lamb;
    require(a.learningRate == b.learningRate,
            describeDifference("learning rate", exact(a.learningRate), exact(b.learningRate)));
    require(a.beta1 == b.beta1 && a.beta2 == b.beta2 && a.eps == b.eps && a.clampValue == b.clampValue &&
                a.debias == b.debias && a.adam == b.adam,
            "cannot resume: the LAMB settings differ from the checkpoint's");
    require(a.weightDecay == b.weightDecay,
            describeDifference("weight decay", exact(a.weightDecay), exact(b.weightDecay)));
    require(o.warmupSteps == info.warmupSteps,
            describeDifference("warmup", std::to_string(o.warmupSteps), std::to_string(info.warmupSteps)));
    require(o.effectiveScheduleSteps() == info.scheduleSteps,
            describeDifference("schedule length", std::to_string(o.effectiveScheduleSteps()),
                               std::to_string(info.scheduleSteps)));
    require(o.clipNorm == info.clipNorm,
            describeDifference("clip norm", exact(o.clipNorm), exact(info.clipNorm)));
}

std::int64_t LocalTrainer::parameterCount() const {
    return (*model_)->parameterCount();
}

LocalTrainer::Result LocalTrainer::run(const std::atomic<bool>& stopRequested, const Callbacks& callbacks) {
    Result result;
    while (step_ < options_.steps) {
        if (stopRequested.load()) {
            result.interrupted = true;
            break;
        }
        TrainingStepReport report;
        if (!trainStep(stopRequested, report)) {
            result.interrupted = true;
            break;
        }
        log_->append(report);
        if (callbacks.onStep)
            callbacks.onStep(report);
        if (options_.checkpointEvery > 0 && step_ % options_.checkpointEvery == 0)
            saveCheckpoint(callbacks);
    }
    if (step_ != lastCheckpointStep_)
        saveCheckpoint(callbacks);
    result.step = step_;
    return result;
}

bool LocalTrainer::trainStep(const std::atomic<bool>& stopRequested, TrainingStepReport& report) {
    const auto started = std::chrono::steady_clock::now();
    const compute::TokenBatch batch = stream_->next();
    const std::int64_t samples = batch.rows;
    const std::int64_t masked = batch.maskedTokens();
    const std::int64_t tokens = batch.tokens();

    // Dropout and any other randomness of this step depend on (seed, step) only, not on history.
    at::manual_seed(
        text::PortableRandom::deriveSeed(options_.seed, {kStepSeedTag, static_cast<std::uint64_t>(step_)}));
    optimizer_->zeroGrad();
    StepTotals totals;
    const std::int64_t micro = options_.effectiveMicroBatchSize();
    for (std::int64_t begin = 0; begin < samples; begin += micro) {
        if (stopRequested.load()) {
            // Abandon the step: the checkpoint keeps the previous step's data position, so these samples
            // are drawn again after a resume.
            optimizer_->zeroGrad();
            openStream();
            return false;
        }
        accumulate(batch, begin, std::min(begin + micro, samples), samples, masked, totals);
    }

    const double gradientNorm = clipGradientNorm(optimizer_->parameters(), options_.clipNorm);
    const double learningRate = schedule_.learningRate(step_);
    const double loss = (masked > 0 ? totals.mlmLossSum / masked : 0.0) + totals.sopLossSum / samples;
    report.skipped = !std::isfinite(gradientNorm) || !std::isfinite(loss);
    if (!report.skipped) {
        optimizer_->setLearningRate(learningRate);
        optimizer_->step();
    }
    optimizer_->zeroGrad();
    ++step_;
    position_ = stream_->position();

    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    report.step = step_;
    report.totalSteps = options_.steps;
    report.mlmLoss = masked > 0 ? totals.mlmLossSum / masked : 0.0;
    report.sopLoss = totals.sopLossSum / samples;
    report.loss = loss;
    report.mlmAccuracy = masked > 0 ? static_cast<double>(totals.mlmCorrect) / masked : 0.0;
    report.sopAccuracy = static_cast<double>(totals.sopCorrect) / samples;
    report.learningRate = learningRate;
    report.gradientNorm = gradientNorm;
    report.samples = samples;
    report.tokens = tokens;
    report.maskedTokens = masked;
    report.samplesPerSecond = seconds > 0 ? samples / seconds : 0.0;
    report.tokensPerSecond = seconds > 0 ? tokens / seconds : 0.0;
    return true;
}

void LocalTrainer::accumulate(const compute::TokenBatch& batch, std::int64_t begin, std::int64_t end,
                              std::int64_t batchSamples, std::int64_t batchMasked, StepTotals& totals) {
    // The batch is padded to its longest sample; a micro-batch needs only its own longest.
    const model::BatchTensors tensors = model::BatchTensors::of(batch.slice(begin, end), device_);
    model::PreTrainingLossValues values;
    {
        const model::AutocastGuard autocast(device_, model::AutocastPrecision::BFloat16);
        const auto output = (*model_)->forwardMasked(tensors.inputIds, tensors.attentionMask,
                                                     tensors.tokenTypeIds, tensors.mlmLabels);
        values = model::PreTrainingLoss::compute(output, tensors.sopLabels);
    }
    // Each part is the micro-batch's share of the whole batch's means (see the class comment).
    at::Tensor objective = values.sopLoss * (static_cast<double>(values.sopCount) / batchSamples);
    if (batchMasked > 0 && values.mlmCount > 0)
        objective = objective + values.mlmLoss * (static_cast<double>(values.mlmCount) / batchMasked);
    objective.backward();

    totals.mlmLossSum += values.mlmLoss.item<double>() * values.mlmCount;
    totals.sopLossSum += values.sopLoss.item<double>() * values.sopCount;
    totals.mlmCorrect += values.mlmCorrect;
    totals.sopCorrect += values.sopCorrect;
}

TrainingCheckpointInfo LocalTrainer::checkpointInfo() const {
    TrainingCheckpointInfo info;
    info.step = step_;
    info.dataPosition = position_;
    info.seed = options_.seed;
    info.configName = options_.configName;
    info.batchSize = options_.batchSize;
    info.microBatchSize = options_.effectiveMicroBatchSize();
    info.sequenceLength = options_.sequenceLength;
    info.lamb = options_.lamb;
    info.warmupSteps = options_.warmupSteps;
    info.scheduleSteps = options_.effectiveScheduleSteps();
    info.clipNorm = options_.clipNorm;
    info.corpus = options_.corpusPath.string();
    info.documents = options_.documents;
    info.tokenizer = options_.tokenizerPath.string();
    return info;
}

void LocalTrainer::saveCheckpoint(const Callbacks& callbacks) {
    // The schedule's peak, not the current rate, is what the checkpoint records as the learning rate.
    TrainingCheckpoint::save(options_.outputDir, *model_, *optimizer_, checkpointInfo());
    lastCheckpointStep_ = step_;
    if (callbacks.onCheckpoint)
        callbacks.onCheckpoint(step_, TrainingCheckpoint::directory(options_.outputDir));
}

} // namespace sahaj::train
