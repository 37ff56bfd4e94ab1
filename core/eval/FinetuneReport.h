#pragma once

#include "core/eval/FinetuneFeatures.h"
#include "core/eval/FinetuneOptions.h"
#include "core/eval/FinetuneRun.h"
#include "core/eval/TaskScores.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace sahaj::eval {

// The results of fine-tuning with one or more seeds: per seed the epochs, the kept epoch and the dev and
// test figures, and over the seeds mean ± sample standard deviation (0 for one seed), as the sahajBERT
// results table reports them; with the trivial baseline (majority class, or no entity at all) beside them.
class FinetuneReport {
public:
    FinetuneReport(const FinetuneOptions& options, const QString& checkpoint, const QStringList& labels,
                   const TaskScores& baseline);

    void add(const FinetuneRunResult& run, const QString& modelDirectory);

    // withHistory adds every run's per-epoch record (results.json has it; the printed summary does not).
    QJsonObject toJson(bool withHistory = true) const;
    // A plain-text table in percent, one row per seed and a mean ± std row.
    QString table() const;

    // Test scores of the trivial predictor: the most frequent training class for every text (ties: the
    // lowest class id), or "O" for every word.
    static TaskScores baseline(FinetuneTask task, const std::vector<FinetuneFeatures>& trainSet,
                               const std::vector<FinetuneFeatures>& testSet);

    struct MeanStd {
        double mean = 0.0;
        double std = 0.0;
    };
    static MeanStd meanStd(const std::vector<double>& values);

private:
    std::vector<double> figure(bool test, const QString& name) const;
    QStringList figureNames() const;

    FinetuneOptions options_;
    QString checkpoint_;
    QStringList labels_;
    TaskScores baseline_;
    std::vector<FinetuneRunResult> runs_;
    QStringList modelDirectories_;
};

} // namespace sahaj::eval
