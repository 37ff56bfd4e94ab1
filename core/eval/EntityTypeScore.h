#pragma once

#include <QString>

#include <cstdint>

namespace sahaj::eval {

// Entity counts and scores of one entity type (or of all types together).
struct EntityTypeScore {
    QString type;
    std::int64_t gold = 0;
    std::int64_t predicted = 0;
    std::int64_t correct = 0;
    double precision = 0; // correct / predicted, 0 when nothing was predicted
    double recall = 0;    // correct / gold, 0 when there is no gold entity
    double f1 = 0;        // harmonic mean of the two, 0 when both are 0
};

} // namespace sahaj::eval
