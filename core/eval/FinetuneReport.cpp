#include "core/eval/FinetuneReport.h"

#include "core/eval/EntityF1.h"

#include <QJsonArray>

#include <cmath>
#include <map>

namespace sahaj::eval {

FinetuneReport::FinetuneReport(const FinetuneOptions& options, const QString& checkpoint,
                               const QStringList& labels, const TaskScores& baseline)
    : options_(options), checkpoint_(checkpoint), labels_(labels), baseline_(baseline) {}

void FinetuneReport::add(const FinetuneRunResult& run, const QString& modelDirectory) {
    runs_.push_back(run);
    modelDirectories_.push_back(modelDirectory);
}

TaskScores FinetuneReport::baseline(FinetuneTask task, const std::vector<FinetuneFeatures>& trainSet,
                                    const std::vector<FinetuneFeatures>& testSet) {
    if (task == FinetuneTask::Ner) {
        EntityF1 entities;
        for (const FinetuneFeatures& example : testSet)
            entities.add(example.goldTags, QStringList(example.goldTags.size(), QStringLiteral("O")));
        return TaskScores::fromEntities(entities);
    }
    std::map<std::int64_t, std::int64_t> counts;
    for (const FinetuneFeatures& example : trainSet)
        ++counts[example.labels.front()];
    std::int64_t majority = 0;
    std::int64_t most = -1;
    for (const auto& [label, count] : counts) // ascending ids: a tie keeps the lowest
        if (count > most) {
            majority = label;
            most = count;
        }
    std::int64_t correct = 0;
    for (const FinetuneFeatures& example : testSet)
        correct += example.labels.front() == majority;
    return TaskScores::fromAccuracy(correct, static_cast<std::int64_t>(testSet.size()));
}

FinetuneReport::MeanStd FinetuneReport::meanStd(const std::vector<double>& values) {
    MeanStd result;
    if (values.empty())
        return result;
    for (const double value : values)
        result.mean += value;
    result.mean /= static_cast<double>(values.size());
    if (values.size() > 1) {
        double squares = 0.0;
        for (const double value : values)
            squares += (value - result.mean) * (value - result.mean);
        result.std = std::sqrt(squares / static_cast<double>(values.size() - 1));
    }
    return result;
}

QStringList FinetuneReport::figureNames() const {
    if (options_.task == FinetuneTask::Ner)
        return {"f1", "precision", "recall"};
    return {"accuracy"};
}

std::vector<double> FinetuneReport::figure(bool test, const QString& name) const {
    std::vector<double> values;
    for (const FinetuneRunResult& run : runs_)
        values.push_back((test ? run.test : run.dev).figures.value(name).toDouble());
    return values;
}

QJsonObject FinetuneReport::toJson(bool withHistory) const {
    QJsonArray runs;
    for (std::size_t r = 0; r < runs_.size(); ++r) {
        const FinetuneRunResult& run = runs_[r];
        QJsonArray history;
        for (const FinetuneEpoch& epoch : run.history)
            history.append(QJsonObject{{"epoch", static_cast<qint64>(epoch.epoch)},
                                       {"train_loss", epoch.trainLoss},
                                       {"dev", epoch.dev.figures},
                                       {"best", epoch.best},
                                       {"seconds", epoch.seconds}});
        QJsonObject entry{{"seed", static_cast<qint64>(run.seed)},
                          {"epochs", static_cast<qint64>(run.history.size())},
                          {"best_epoch", static_cast<qint64>(run.bestEpoch)},
                          {"stopped_early", run.stoppedEarly},
                          {"dev", run.dev.figures},
                          {"test", run.test.figures},
                          {"model", modelDirectories_[static_cast<qsizetype>(r)]}};
        if (withHistory)
            entry.insert("history", history);
        runs.append(entry);
    }
    QJsonObject summary;
    for (const bool test : {false, true})
        for (const QString& name : figureNames()) {
            const MeanStd m = meanStd(figure(test, name));
            summary.insert((test ? "test_" : "dev_") + name, QJsonObject{{"mean", m.mean}, {"std", m.std}});
        }
    QJsonArray seeds;
    for (const std::uint64_t seed : options_.seeds)
        seeds.append(static_cast<qint64>(seed));
    const QJsonObject settings{
        {"learning_rate", options_.learningRate},
        {"weight_decay", options_.weightDecay},
        {"warmup_ratio", options_.warmupRatio},
        {"max_length", static_cast<qint64>(options_.maxLength)},
        {"max_epochs", static_cast<qint64>(options_.maxEpochs)},
        {"batch", static_cast<qint64>(options_.batchSize)},
        {"micro_batch", static_cast<qint64>(options_.effectiveMicroBatchSize())},
        {"patience", static_cast<qint64>(options_.patience)},
        {"threshold", options_.threshold},
        {"seeds", seeds},
    };
    return QJsonObject{{"task", FinetuneOptions::taskName(options_.task)},
                       {"metric", FinetuneOptions::metricName(options_.task)},
                       {"checkpoint", checkpoint_},
                       {"labels", QJsonArray::fromStringList(labels_)},
                       {"settings", settings},
                       {"baseline_test", baseline_.figures},
                       {"runs", runs},
                       {"summary", summary}};
}

QString FinetuneReport::table() const {
    const QStringList names = figureNames();
    const auto percent = [](double value) { return QString::number(100.0 * value, 'f', 2); };
    const auto cell = [](const QString& text, int width) { return text.leftJustified(width); };
    QString header = cell("seed", 8) + cell("epochs", 8) + cell("best", 6);
    for (const QString& name : names)
        header += cell("dev_" + name, 16);
    for (const QString& name : names)
        header += cell("test_" + name, 16);
    QString text = header.trimmed() + "\n";
    for (const FinetuneRunResult& run : runs_) {
        QString row = cell(QString::number(run.seed), 8) + cell(QString::number(run.history.size()), 8) +
                      cell(QString::number(run.bestEpoch), 6);
        for (const bool test : {false, true})
            for (const QString& name : names)
                row += cell(percent((test ? run.test : run.dev).figures.value(name).toDouble()), 16);
        text += row.trimmed() + "\n";
    }
    QString summary = cell("mean", 22);
    for (const bool test : {false, true})
        for (const QString& name : names) {
            const MeanStd m = meanStd(figure(test, name));
            summary += cell(percent(m.mean) + " ± " + percent(m.std), 16);
        }
    text += summary.trimmed() + "\n";
    const QString metric = FinetuneOptions::metricName(options_.task);
    // For NER the trivial predictor always scores F1 0; its token accuracy shows how rare entities are.
    const QString extra = options_.task == FinetuneTask::Ner
                              ? QStringLiteral(" (token accuracy %1)")
                                    .arg(percent(baseline_.figures.value("token_accuracy").toDouble()))
                              : QString();
    text += QStringLiteral("baseline (%1) test_%2 %3%4\n")
                .arg(options_.task == FinetuneTask::Ner ? "no entity" : "majority class", metric,
                     percent(baseline_.metric), extra);
    return text;
}

} // namespace sahaj::eval
