#include "core/eval/EntityF1.h"

#include "core/eval/EntitySpans.h"

#include <stdexcept>

namespace sahaj::eval {

namespace {

double ratio(std::int64_t numerator, std::int64_t denominator) {
    return denominator == 0 ? 0.0 : static_cast<double>(numerator) / static_cast<double>(denominator);
}

} // namespace

void EntityF1::add(const QStringList& gold, const QStringList& predicted) {
    if (gold.size() != predicted.size())
        throw std::invalid_argument(QStringLiteral("EntityF1: %1 gold tags but %2 predicted tags")
                                        .arg(gold.size())
                                        .arg(predicted.size())
                                        .toStdString());
    // Both are extracted before anything is counted, so a bad tag leaves the totals as they were.
    const std::vector<EntitySpan> goldSpans = EntitySpans::extract(gold);
    const std::vector<EntitySpan> predictedSpans = EntitySpans::extract(predicted);

    for (const EntitySpan& span : goldSpans) {
        ++total_.gold;
        ++byType_[span.type].gold;
    }
    for (const EntitySpan& span : predictedSpans) {
        ++total_.predicted;
        ++byType_[span.type].predicted;
    }
    // Spans of one sentence are sorted and disjoint, so begins are unique: a merge on begin pairs every
    // possible match in linear time, however long a (damaged) sentence is.
    auto g = goldSpans.cbegin();
    auto p = predictedSpans.cbegin();
    while (g != goldSpans.cend() && p != predictedSpans.cend()) {
        if (g->begin < p->begin) {
            ++g;
        } else if (p->begin < g->begin) {
            ++p;
        } else {
            if (*g == *p) {
                ++total_.correct;
                ++byType_[g->type].correct;
            }
            ++g;
            ++p;
        }
    }

    tokens_ += gold.size();
    for (qsizetype i = 0; i < gold.size(); ++i)
        equalTokens_ += gold[i] == predicted[i] ? 1 : 0;
}

double EntityF1::precision() const {
    return total().precision;
}

double EntityF1::recall() const {
    return total().recall;
}

double EntityF1::f1() const {
    return total().f1;
}

double EntityF1::tokenAccuracy() const {
    return ratio(equalTokens_, tokens_);
}

EntityTypeScore EntityF1::total() const {
    return score(QString(), total_);
}

// F1 as 2c/(g+p): equal to 2PR/(P+R) without the rounding of the two ratios, and 0 rather than 0/0.
EntityTypeScore EntityF1::score(const QString& type, const Counts& counts) {
    return {type,
            counts.gold,
            counts.predicted,
            counts.correct,
            ratio(counts.correct, counts.predicted),
            ratio(counts.correct, counts.gold),
            ratio(2 * counts.correct, counts.gold + counts.predicted)};
}

std::vector<EntityTypeScore> EntityF1::perType() const {
    std::vector<EntityTypeScore> scores;
    scores.reserve(byType_.size());
    for (const auto& [type, counts] : byType_)
        scores.push_back(score(type, counts));
    return scores;
}

} // namespace sahaj::eval
