#include "core/eval/TaskScores.h"

#include "core/eval/EntityF1.h"

namespace sahaj::eval {

TaskScores TaskScores::fromEntities(const EntityF1& f1) {
    TaskScores scores;
    scores.metric = f1.f1();
    scores.figures = QJsonObject{
        {"f1", f1.f1()},
        {"precision", f1.precision()},
        {"recall", f1.recall()},
        {"token_accuracy", f1.tokenAccuracy()},
        {"gold_entities", static_cast<qint64>(f1.goldCount())},
        {"predicted_entities", static_cast<qint64>(f1.predictedCount())},
        {"correct_entities", static_cast<qint64>(f1.correctCount())},
    };
    return scores;
}

TaskScores TaskScores::fromAccuracy(std::int64_t correct, std::int64_t examples) {
    TaskScores scores;
    scores.metric = examples ? static_cast<double>(correct) / static_cast<double>(examples) : 0.0;
    scores.figures = QJsonObject{
        {"accuracy", scores.metric},
        {"correct", static_cast<qint64>(correct)},
        {"examples", static_cast<qint64>(examples)},
    };
    return scores;
}

} // namespace sahaj::eval
