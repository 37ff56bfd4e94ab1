#include "app/model/FinetuneCommand.h"

#include "app/model/DeviceOption.h"
#include "app/node/CommandLine.h"
#include "app/node/StopSignalScope.h"
#include "app/node/TokenizerOption.h"
#include "app/node/UsageError.h"
#include "core/array/AtomicFile.h"
#include "core/eval/ClassificationReader.h"
#include "core/eval/ConllReader.h"
#include "core/eval/FinetuneEncoder.h"
#include "core/eval/FinetuneReport.h"
#include "core/eval/FinetuneRun.h"
#include "core/eval/LabelSet.h"
#include "core/eval/PretrainedModelDirectory.h"
#include "core/model/AlbertConfig.h"
#include "core/model/ClassificationCheckpoint.h"
#include "core/model/ComputeThreads.h"
#include "core/model/ModelCheckpoint.h"
#include "core/text/Tokenizer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <ATen/Parallel.h>

#include <limits>

namespace sahaj::node {

namespace {

std::vector<std::uint64_t> seedList(const QCommandLineParser& parser) {
    if (!parser.isSet("seeds"))
        return {1};
    std::vector<std::uint64_t> seeds;
    for (const QString& part : parser.value("seeds").split(',')) {
        bool ok = false;
        const std::uint64_t seed = part.trimmed().toULongLong(&ok);
        if (!ok)
            throw UsageError("--seeds must be a comma-separated list of non-negative integers, got '" +
                             parser.value("seeds").toStdString() + "'");
        seeds.push_back(seed);
    }
    return seeds;
}

eval::FinetuneOptions optionsFrom(const QCommandLineParser& parser) {
    constexpr long long kMaxCount = std::numeric_limits<int>::max();
    eval::FinetuneOptions o;
    const QString task = CommandLine::requiredValue(parser, "task");
    if (task == "ner")
        o.task = eval::FinetuneTask::Ner;
    else if (task == "classify")
        o.task = eval::FinetuneTask::Classify;
    else
        throw UsageError("--task must be 'ner' or 'classify', got '" + task.toStdString() + "'");
    o.learningRate = CommandLine::realValue(parser, "lr", o.learningRate, 0.0, 1.0);
    o.weightDecay = CommandLine::realValue(parser, "weight-decay", o.weightDecay, 0.0, 1.0);
    o.warmupRatio = CommandLine::realValue(parser, "warmup-ratio", o.warmupRatio, 0.0, 0.99);
    o.maxLength = CommandLine::integerValue(parser, "max-length", o.maxLength, 3, 1 << 16);
    o.maxEpochs = CommandLine::integerValue(parser, "epochs", o.maxEpochs, 1, 100000);
    o.batchSize = CommandLine::integerValue(parser, "batch", o.batchSize, 1, kMaxCount);
    o.microBatchSize = CommandLine::integerValue(parser, "micro-batch", o.microBatchSize, 1, kMaxCount);
    o.evalBatchSize = CommandLine::integerValue(parser, "eval-batch", o.evalBatchSize, 1, kMaxCount);
    o.patience = CommandLine::integerValue(parser, "patience", o.patience, 1, 100000);
    o.threshold = CommandLine::realValue(parser, "threshold", o.threshold, 0.0, 0.99);
    o.seeds = seedList(parser);
    o.device = DeviceOption::value(parser);
    try {
        o.validate();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return o;
}

// The task's three splits, tokenised, with the label set of the training split.
struct EncodedTask {
    eval::LabelSet labels;
    std::vector<eval::FinetuneFeatures> train, dev, test;
};

eval::LabelSet labelsOf(const std::vector<eval::TaggedSentence>& sentences) {
    return eval::LabelSet::forTags(sentences);
}

eval::LabelSet labelsOf(const std::vector<eval::LabelledText>& examples) {
    return eval::LabelSet::forClasses(examples);
}

template <typename Reader>
EncodedTask encodeTask(const QString& trainPath, const QString& devPath, const QString& testPath,
                       const text::Tokenizer& tokenizer, std::int64_t maxLength) {
    const auto trainSet = Reader::read(trainPath);
    const auto devSet = Reader::read(devPath);
    const auto testSet = Reader::read(testPath);
    EncodedTask task{labelsOf(trainSet), {}, {}, {}};
    task.labels.checkCovers(devSet, devPath);
    task.labels.checkCovers(testSet, testPath);
    const eval::FinetuneEncoder encoder(tokenizer, task.labels, maxLength);
    task.train = encoder.encodeAll(trainSet);
    task.dev = encoder.encodeAll(devSet);
    task.test = encoder.encodeAll(testSet);
    return task;
}

std::vector<std::string> labelNames(const eval::LabelSet& labels) {
    std::vector<std::string> names;
    for (const QString& name : labels.names())
        names.push_back(name.toStdString());
    return names;
}

} // namespace

QString FinetuneCommand::description() const {
    return QStringLiteral(
        "Fine-tune a pre-trained model and report its scores, with the protocol of sahajBERT's downstream\n"
        "results as defaults: AdamW, lr 1e-5, linear decay, inputs cut at 128 tokens, batches of 128\n"
        "(accumulated over --micro-batch), up to 20 epochs, early stopping on the dev metric with patience\n"
        "3 and threshold 0.01; the best dev epoch is kept and scored on test.\n"
        "--task ner reads CoNLL files (a token per line, the tag in the last column, BIO/IOB2 tags, a blank\n"
        "line between sentences), labels the first sub-token of each word and reports entity-level micro\n"
        "F1 (a span counts only with its type and both boundaries right; conlleval's chunking).\n"
        "--task classify reads JSONL ({\"text\", \"label\"}) or TSV (text<TAB>label, or a header naming\n"
        "the text and label columns) and reports accuracy.\n"
        "Each seed's model is saved in Hugging Face layout (AlbertForTokenClassification or\n"
        "AlbertForSequenceClassification: config.json with id2label, model.safetensors, tokenizer.json)\n"
        "in OUT/seed-S; OUT/results.json holds every figure. The table prints percentages, with mean ±\n"
        "sample standard deviation over the seeds, and the trivial baseline (majority class, or no entity).");
}

void FinetuneCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOptions({
        {"task", "ner or classify.", "TASK"},
        {"checkpoint", "Pre-trained model folder, or a train-local output folder.", "DIR"},
        {"train", "Training data.", "FILE"},
        {"dev", "Development data (early stopping, model choice).", "FILE"},
        {"test", "Test data (reported).", "FILE"},
        {"out", "Output folder: seed-S/ models and results.json.", "DIR"},
        {"seeds", "Comma-separated seeds, one fine-tuning each (default: 1).", "S,..."},
        {"lr", "Peak learning rate (default: 1e-5).", "X"},
        {"epochs", "Most epochs (default: 20).", "N"},
        {"batch", "Examples per optimiser step (default: 128).", "B"},
        {"micro-batch", "Examples per forward/backward pass (default: 32).", "M"},
        {"eval-batch", "Examples per forward pass when scoring (default: 64).", "E"},
        {"max-length", "Tokens per input, [CLS] and [SEP] included (default: 128).", "L"},
        {"patience", "Epochs without a dev gain above the threshold before stopping (default: 3).", "P"},
        {"threshold", "Smallest dev-metric gain that counts, in [0,1) (default: 0.01).", "T"},
        {"weight-decay", "AdamW weight decay, none on biases and LayerNorm (default: 0).", "W"},
        {"warmup-ratio", "Share of the steps spent warming up the learning rate (default: 0).", "R"},
        {"threads", "CPU threads for torch (default: torch's choice).", "N"},
    });
    TokenizerOption::add(parser, "tokenizer.json (default: the model's, else the sahajBERT one).");
    DeviceOption::add(parser);
}

int FinetuneCommand::run(const QCommandLineParser& parser) {
    const eval::FinetuneOptions options = optionsFrom(parser);
    const QString checkpoint = CommandLine::requiredValue(parser, "checkpoint");
    const QString trainPath = CommandLine::existingFile("train", CommandLine::requiredValue(parser, "train"));
    const QString devPath = CommandLine::existingFile("dev", CommandLine::requiredValue(parser, "dev"));
    const QString testPath = CommandLine::existingFile("test", CommandLine::requiredValue(parser, "test"));
    const QDir outDir(QDir(CommandLine::requiredValue(parser, "out")).absolutePath());
    const long long threads = CommandLine::integerValue(parser, "threads", 0, 1, 1024);
    model::setComputeThreads(static_cast<int>(threads));

    const auto located = eval::PretrainedModelDirectory::locate(checkpoint.toStdString());
    const model::AlbertConfig config =
        model::AlbertConfig::loadFile(located.model / model::ModelCheckpoint::kConfigFileName);
    const model::SafeTensors::Tensors pretrained =
        model::SafeTensors::read(located.model / model::ModelCheckpoint::kWeightsFileName).tensors;
    const QString tokenizerPath = TokenizerOption::pathForModel(parser, located.tokenizer);
    const text::Tokenizer tokenizer = TokenizerOption::loadForModel(tokenizerPath, config.vocabSize);
    if (options.maxLength > config.maxPositionEmbeddings)
        throw UsageError("--max-length " + std::to_string(options.maxLength) + " exceeds the model's " +
                         std::to_string(config.maxPositionEmbeddings) + " positions");

    const EncodedTask task =
        options.task == eval::FinetuneTask::Ner
            ? encodeTask<eval::ConllReader>(trainPath, devPath, testPath, tokenizer, options.maxLength)
            : encodeTask<eval::ClassificationReader>(trainPath, devPath, testPath, tokenizer,
                                                     options.maxLength);
    if (!outDir.mkpath("."))
        throw std::runtime_error("cannot create " + outDir.path().toStdString());

    const QString metric = eval::FinetuneOptions::metricName(options.task);
    QTextStream& out = CommandLine::out();
    out << "finetune: task=" << eval::FinetuneOptions::taskName(options.task)
        << " labels=" << task.labels.size() << " train=" << task.train.size() << " dev=" << task.dev.size()
        << " test=" << task.test.size() << " lr=" << options.learningRate << " batch=" << options.batchSize
        << " micro_batch=" << options.effectiveMicroBatchSize() << " max_length=" << options.maxLength
        << " epochs<=" << options.maxEpochs << " device=" << QString::fromStdString(options.device)
        << " threads=" << at::get_num_threads() << "\n";
    out.flush();

    eval::FinetuneReport report(options, QString::fromStdString(located.model.string()), task.labels.names(),
                                eval::FinetuneReport::baseline(options.task, task.train, task.test));
    const StopSignalScope signals;
    for (const std::uint64_t seed : options.seeds) {
        eval::FinetuneRun run(options, config, pretrained, task.labels, seed, c10::Device(options.device));
        const auto onEpoch = [&](const eval::FinetuneEpoch& epoch) {
            out << "seed=" << seed << " epoch=" << epoch.epoch << " train_loss=" << epoch.trainLoss << " dev_"
                << metric << "=" << epoch.dev.metric << (epoch.best ? " best" : "")
                << " seconds=" << QString::number(epoch.seconds, 'f', 1) << "\n";
            out.flush();
        };
        const eval::FinetuneRunResult result =
            run.train(task.train, task.dev, task.test, onEpoch, &StopSignalScope::requested());
        const QString modelDir = outDir.filePath(QStringLiteral("seed-%1").arg(seed));
        model::ClassificationCheckpoint::save(run.model(), labelNames(task.labels), modelDir.toStdString());
        // A copy of the tokenizer makes the folder complete for `transformers` and for later use here.
        const QString tokenizerCopy = QDir(modelDir).filePath("tokenizer.json");
        QFile::remove(tokenizerCopy);
        if (!QFile::copy(tokenizerPath, tokenizerCopy))
            throw std::runtime_error("cannot copy the tokenizer to " + tokenizerCopy.toStdString());
        report.add(result, modelDir);
        out << "seed=" << seed << " best_epoch=" << result.bestEpoch << " dev_" << metric << "="
            << result.dev.metric << " test_" << metric << "=" << result.test.metric << " model=" << modelDir
            << "\n";
        out.flush();
        if (StopSignalScope::requested().load()) {
            out << "interrupted: reporting the seeds finished so far\n";
            break;
        }
    }

    const QByteArray json = QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented);
    array::AtomicFile::write(outDir.filePath("results.json").toStdString(), json.toStdString());
    out << "\n" << report.table() << "\nresults=" << outDir.filePath("results.json") << "\n";
    out << QJsonDocument(report.toJson(/*withHistory=*/false)).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}

} // namespace sahaj::node
