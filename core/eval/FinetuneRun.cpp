#include "core/eval/FinetuneRun.h"

#include "core/eval/EntityF1.h"
#include "core/optim/LinearWarmupSchedule.h"
#include "core/text/PortableRandom.h"
#include "core/text/PretrainingExample.h"
#include "core/train/GradientClipping.h"
#include "core/train/ParameterGrouping.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sahaj::eval {

namespace {

// Separates the uses of a run's seed.
constexpr std::uint64_t kShuffleTag = 0x53485546464c45ULL; // "SHUFFLE"
constexpr std::uint64_t kDropoutTag = 0x44524f504f5554ULL; // "DROPOUT"

std::vector<at::Tensor> parametersOf(const torch::nn::Module& module) {
    return module.parameters();
}

} // namespace

struct FinetuneRun::Batch {
    at::Tensor inputIds;
    at::Tensor attentionMask;
    at::Tensor tokenTypeIds;
    at::Tensor labels; // token task [B,L] with -100; sequence task [B]
};

FinetuneRun::FinetuneRun(const FinetuneOptions& options, const model::AlbertConfig& config,
                         const model::SafeTensors::Tensors& pretrained, const LabelSet& labels,
                         std::uint64_t seed, c10::Device device)
    : options_(options), labels_(labels), seed_(seed), device_(device),
      padId_(config.padTokenId.value_or(0)) {
    options_.validate();
    const auto head = options_.task == FinetuneTask::Ner ? model::ClassificationHead::Token
                                                         : model::ClassificationHead::Sequence;
    at::manual_seed(seed_); // the head's initialisation
    model_ = model::AlbertForClassification(config, head, labels_.size());
    model_->loadPretrainedBody(pretrained, "of the pre-trained model");
    model_->to(device_);

    // AdamW with the BERT convention of no decay on biases and LayerNorm weights (Hugging Face Trainer).
    std::vector<at::Tensor> decayed, exempt;
    for (const auto& item : model_->named_parameters())
        (train::ParameterGrouping::excludedFromWeightDecay(item.key()) ? exempt : decayed)
            .push_back(item.value());
    const auto adamw = [&](double weightDecay) {
        return std::make_unique<torch::optim::AdamWOptions>(torch::optim::AdamWOptions(options_.learningRate)
                                                                .betas({0.9, 0.999})
                                                                .eps(1e-8)
                                                                .weight_decay(weightDecay));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decayed, adamw(options_.weightDecay));
    groups.emplace_back(exempt, adamw(0.0));
    optimizer_ = std::make_unique<torch::optim::AdamW>(std::move(groups), *adamw(options_.weightDecay));
}

FinetuneRun::~FinetuneRun() = default;

FinetuneRun::Batch FinetuneRun::collate(const std::vector<FinetuneFeatures>& examples,
                                        const std::vector<std::size_t>& order, std::size_t begin,
                                        std::size_t end) const {
    std::size_t longest = 0;
    for (std::size_t i = begin; i < end; ++i)
        longest = std::max(longest, examples[order[i]].inputIds.size());
    const auto rows = static_cast<std::int64_t>(end - begin);
    const auto columns = static_cast<std::int64_t>(longest);
    const bool tokenTask = options_.task == FinetuneTask::Ner;

    Batch batch;
    batch.inputIds = torch::full({rows, columns}, padId_, torch::kLong);
    batch.attentionMask = torch::zeros({rows, columns}, torch::kLong);
    batch.tokenTypeIds = torch::zeros({rows, columns}, torch::kLong);
    batch.labels = tokenTask ? torch::full({rows, columns}, text::kIgnoreLabel, torch::kLong)
                             : torch::empty({rows}, torch::kLong);
    for (std::int64_t row = 0; row < rows; ++row) {
        const FinetuneFeatures& example = examples[order[begin + static_cast<std::size_t>(row)]];
        const auto length = static_cast<std::int64_t>(example.inputIds.size());
        std::copy(example.inputIds.begin(), example.inputIds.end(),
                  batch.inputIds[row].data_ptr<std::int64_t>());
        batch.attentionMask[row].narrow(0, 0, length).fill_(1);
        if (tokenTask)
            std::copy(example.labels.begin(), example.labels.end(),
                      batch.labels[row].data_ptr<std::int64_t>());
        else
            batch.labels[row] = example.labels.front();
    }
    batch.inputIds = batch.inputIds.to(device_);
    batch.attentionMask = batch.attentionMask.to(device_);
    batch.tokenTypeIds = batch.tokenTypeIds.to(device_);
    batch.labels = batch.labels.to(device_);
    return batch;
}

std::int64_t FinetuneRun::scoredLabels(const std::vector<FinetuneFeatures>& examples,
                                       const std::vector<std::size_t>& order, std::size_t begin,
                                       std::size_t end) const {
    std::int64_t count = 0;
    for (std::size_t i = begin; i < end; ++i)
        for (const std::int64_t label : examples[order[i]].labels)
            count += label != text::kIgnoreLabel;
    return count;
}

at::Tensor FinetuneRun::summedLoss(const Batch& batch) {
    const at::Tensor logits = model_->forward(batch.inputIds, batch.attentionMask, batch.tokenTypeIds);
    const auto options = torch::nn::functional::CrossEntropyFuncOptions()
                             .ignore_index(text::kIgnoreLabel)
                             .reduction(torch::kSum);
    return torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}).to(torch::kFloat),
                                                batch.labels.reshape({-1}), options);
}

double FinetuneRun::trainEpoch(const std::vector<FinetuneFeatures>& trainSet, std::int64_t epoch,
                               const std::atomic<bool>* stop) {
    // A fresh permutation per epoch, a function of (seed, epoch) alone.
    std::vector<std::size_t> order(trainSet.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    text::PortableRandom random(
        text::PortableRandom::deriveSeed(seed_, {kShuffleTag, static_cast<std::uint64_t>(epoch)}));
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[random.below(i)]);

    const optim::LinearWarmupSchedule schedule(
        options_.learningRate, static_cast<std::int64_t>(std::ceil(options_.warmupRatio * totalSteps_)),
        std::max<std::int64_t>(totalSteps_, 1));
    const auto batchSize = static_cast<std::size_t>(options_.batchSize);
    const auto micro = static_cast<std::size_t>(options_.effectiveMicroBatchSize());
    model_->train();
    double lossSum = 0.0;
    std::int64_t steps = 0;
    for (std::size_t begin = 0; begin < order.size(); begin += batchSize) {
        const std::size_t end = std::min(order.size(), begin + batchSize);
        const std::int64_t scored = scoredLabels(trainSet, order, begin, end);
        at::manual_seed(
            text::PortableRandom::deriveSeed(seed_, {kDropoutTag, static_cast<std::uint64_t>(stepsDone_)}));
        optimizer_->zero_grad();
        double stepLoss = 0.0;
        for (std::size_t m = begin; m < end; m += micro) {
            if (stop && stop->load()) {
                interrupted_ = true;
                optimizer_->zero_grad();
                return steps ? lossSum / static_cast<double>(steps) : 0.0;
            }
            if (scored == 0)
                break;
            const at::Tensor loss = summedLoss(collate(trainSet, order, m, std::min(end, m + micro))) /
                                    static_cast<double>(scored);
            loss.backward();
            stepLoss += loss.item<double>();
        }
        train::clipGradientNorm(parametersOf(*model_), options_.clipNorm);
        for (auto& group : optimizer_->param_groups())
            static_cast<torch::optim::AdamWOptions&>(group.options()).lr(schedule.learningRate(stepsDone_));
        optimizer_->step();
        ++stepsDone_;
        lossSum += stepLoss;
        ++steps;
    }
    return steps ? lossSum / static_cast<double>(steps) : 0.0;
}

TaskScores FinetuneRun::evaluate(const std::vector<FinetuneFeatures>& examples) {
    const bool wasTraining = model_->is_training();
    model_->eval();
    const torch::NoGradGuard noGrad;
    std::vector<std::size_t> order(examples.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    EntityF1 entities;
    std::int64_t correct = 0;
    const auto batchSize = static_cast<std::size_t>(options_.evalBatchSize);
    for (std::size_t begin = 0; begin < order.size(); begin += batchSize) {
        const std::size_t end = std::min(order.size(), begin + batchSize);
        const Batch batch = collate(examples, order, begin, end);
        const at::Tensor predicted = model_->forward(batch.inputIds, batch.attentionMask, batch.tokenTypeIds)
                                         .argmax(-1)
                                         .to(torch::kCPU);
        for (std::size_t i = begin; i < end; ++i) {
            const FinetuneFeatures& example = examples[i];
            const at::Tensor row = predicted[static_cast<std::int64_t>(i - begin)];
            if (options_.task == FinetuneTask::Classify) {
                correct += row.item<std::int64_t>() == example.labels.front();
                continue;
            }
            const auto tokens = row.accessor<std::int64_t, 1>();
            QStringList tags;
            tags.reserve(example.goldTags.size());
            for (const int position : example.wordTokens)
                tags.push_back(position < 0 ? QStringLiteral("O")
                                            : labels_.name(static_cast<int>(tokens[position])));
            entities.add(example.goldTags, tags);
        }
    }
    model_->train(wasTraining);
    return options_.task == FinetuneTask::Ner
               ? TaskScores::fromEntities(entities)
               : TaskScores::fromAccuracy(correct, static_cast<std::int64_t>(examples.size()));
}

FinetuneRunResult FinetuneRun::train(const std::vector<FinetuneFeatures>& trainSet,
                                     const std::vector<FinetuneFeatures>& devSet,
                                     const std::vector<FinetuneFeatures>& testSet,
                                     const std::function<void(const FinetuneEpoch&)>& onEpoch,
                                     const std::atomic<bool>* stop) {
    if (trainSet.empty() || devSet.empty() || testSet.empty())
        throw std::invalid_argument("fine-tuning needs examples in the train, dev and test sets");
    const auto stepsPerEpoch =
        static_cast<std::int64_t>((trainSet.size() + static_cast<std::size_t>(options_.batchSize) - 1) /
                                  static_cast<std::size_t>(options_.batchSize));
    // As Hugging Face's Trainer: the schedule spans every allowed epoch, whether or not training stops early.
    totalSteps_ = stepsPerEpoch * options_.maxEpochs;

    FinetuneRunResult result;
    result.seed = seed_;
    std::vector<at::Tensor> bestWeights;
    std::optional<double> best;
    std::int64_t epochsWithoutGain = 0;
    for (std::int64_t epoch = 1; epoch <= options_.maxEpochs && !interrupted_; ++epoch) {
        const auto started = std::chrono::steady_clock::now();
        FinetuneEpoch record;
        record.epoch = epoch;
        record.trainLoss = trainEpoch(trainSet, epoch, stop);
        if (interrupted_ && epoch > 1)
            break; // a partial epoch is not scored: the kept weights are the last full epochs' best
        record.dev = evaluate(devSet);
        // Early stopping as Hugging Face's EarlyStoppingCallback: patience resets only on a gain larger
        // than the threshold; the best weights follow any strict gain.
        const double metric = record.dev.metric;
        if (!best || metric > *best + options_.threshold)
            epochsWithoutGain = 0;
        else
            ++epochsWithoutGain;
        if (!best || metric > *best) {
            best = metric;
            record.best = true;
            result.bestEpoch = epoch;
            bestWeights.clear();
            for (const at::Tensor& parameter : model_->parameters())
                bestWeights.push_back(parameter.detach().clone());
        }
        record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        result.history.push_back(record);
        if (onEpoch)
            onEpoch(record);
        if (epochsWithoutGain >= options_.patience) {
            result.stoppedEarly = epoch < options_.maxEpochs;
            break;
        }
    }
    if (!bestWeights.empty()) {
        const torch::NoGradGuard noGrad;
        const std::vector<at::Tensor> parameters = model_->parameters();
        for (std::size_t i = 0; i < parameters.size(); ++i)
            parameters[i].copy_(bestWeights[i]);
    }
    result.dev = evaluate(devSet);
    result.test = evaluate(testSet);
    return result;
}

} // namespace sahaj::eval
