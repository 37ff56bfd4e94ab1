#pragma once

#include <QJsonObject>

#include <cstdint>

namespace sahaj::eval {

class EntityF1;

// What a classifier scored on one data set: the task's main metric in [0, 1] (entity F1 for NER,
// accuracy for classification), which early stopping and the seed summary use, and all its figures.
struct TaskScores {
    double metric = 0.0;
    // NER: f1, precision, recall, token_accuracy, gold_entities, predicted_entities, correct_entities;
    // classification: accuracy, correct, examples.
    QJsonObject figures;

    static TaskScores fromEntities(const EntityF1& f1);
    static TaskScores fromAccuracy(std::int64_t correct, std::int64_t examples);
};

} // namespace sahaj::eval
