#pragma once

#include "core/eval/EntityTypeScore.h"

#include <QStringList>

#include <cstdint>
#include <map>
#include <vector>

namespace sahaj::eval {

// Entity-level micro precision, recall and F1 over sentences added one at a time, as conlleval and
// seqeval report them: entities by EntitySpans, and a predicted entity is correct only when a gold one
// has the same type, begin and end (no credit for overlap). Also token accuracy, the share of equal tags.
class EntityF1 {
public:
    // One sentence's gold and predicted tags. Throws std::invalid_argument (and counts nothing) when the
    // lengths differ or a tag is not O, B-TYPE or I-TYPE.
    void add(const QStringList& gold, const QStringList& predicted);

    std::int64_t goldCount() const { return total_.gold; }
    std::int64_t predictedCount() const { return total_.predicted; }
    std::int64_t correctCount() const { return total_.correct; }
    std::int64_t tokenCount() const { return tokens_; }

    // Each is 0 when its denominator is 0 (an all-O prediction has precision 0, as seqeval reports it).
    double precision() const;
    double recall() const;
    double f1() const;
    double tokenAccuracy() const;

    // All types together, with an empty type name.
    EntityTypeScore total() const;
    // One entry per type seen in gold or prediction, sorted by type.
    std::vector<EntityTypeScore> perType() const;

private:
    struct Counts {
        std::int64_t gold = 0;
        std::int64_t predicted = 0;
        std::int64_t correct = 0;
    };
    static EntityTypeScore score(const QString& type, const Counts& counts);

    Counts total_;
    std::map<QString, Counts> byType_;
    std::int64_t tokens_ = 0;
    std::int64_t equalTokens_ = 0;
};

} // namespace sahaj::eval
