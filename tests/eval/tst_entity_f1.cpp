// Entity spans by the conlleval chunk rules and strict entity-level micro F1, checked against counts
// worked out by hand (span notation: TYPE[begin,end), end exclusive).
#include "core/eval/EntityF1.h"
#include "core/eval/EntitySpans.h"

#include <QTest>

#include <stdexcept>

using namespace sahaj::eval;

namespace {

using Spans = std::vector<EntitySpan>;

QStringList tags(const char* line) {
    return QString::fromUtf8(line).split(QLatin1Char(' '));
}

EntityF1 scored(const char* gold, const char* predicted) {
    EntityF1 f1;
    f1.add(tags(gold), tags(predicted));
    return f1;
}

} // namespace

class TestEntityF1 : public QObject {
    Q_OBJECT

private:
    // What one EntityF1 should report.
    struct Expected {
        std::int64_t gold = 0;
        std::int64_t predicted = 0;
        std::int64_t correct = 0;
        double precision = 0;
        double recall = 0;
        double f1 = 0;
        double tokenAccuracy = 0;
    };

    static void compareScore(const EntityTypeScore& actual, const EntityTypeScore& expected) {
        QCOMPARE(actual.type, expected.type);
        QCOMPARE(actual.gold, expected.gold);
        QCOMPARE(actual.predicted, expected.predicted);
        QCOMPARE(actual.correct, expected.correct);
        QCOMPARE(actual.precision, expected.precision);
        QCOMPARE(actual.recall, expected.recall);
        QCOMPARE(actual.f1, expected.f1);
    }

    static void compare(const EntityF1& f1, const Expected& expected) {
        QCOMPARE(f1.goldCount(), expected.gold);
        QCOMPARE(f1.predictedCount(), expected.predicted);
        QCOMPARE(f1.correctCount(), expected.correct);
        QCOMPARE(f1.precision(), expected.precision);
        QCOMPARE(f1.recall(), expected.recall);
        QCOMPARE(f1.f1(), expected.f1);
        QCOMPARE(f1.tokenAccuracy(), expected.tokenAccuracy);
    }

private Q_SLOTS:
    void spansOfBioTags() {
        // PER[0,2) LOC[3,4); an empty sentence and an all-O one have none.
        QCOMPARE(EntitySpans::extract(tags("B-PER I-PER O B-LOC")), Spans({{"PER", 0, 2}, {"LOC", 3, 4}}));
        QCOMPARE(EntitySpans::extract({}), Spans());
        QCOMPARE(EntitySpans::extract(tags("O O")), Spans());
        // Types may contain '-' (only the first one separates the prefix).
        QCOMPARE(EntitySpans::extract(tags("B-PER-NAME I-PER-NAME")), Spans({{"PER-NAME", 0, 2}}));
    }

    void adjacentEntitiesStaySeparate() {
        // A B- always starts a new chunk, even right after the same type.
        QCOMPARE(EntitySpans::extract(tags("B-PER B-PER")), Spans({{"PER", 0, 1}, {"PER", 1, 2}}));
        QCOMPARE(EntitySpans::extract(tags("B-PER I-PER B-PER")), Spans({{"PER", 0, 2}, {"PER", 2, 3}}));
        QCOMPARE(EntitySpans::extract(tags("B-PER B-LOC")), Spans({{"PER", 0, 1}, {"LOC", 1, 2}}));

        // gold PER[0,1) PER[1,2) LOC[2,3); predicted PER[0,2) LOC[2,3): only LOC matches.
        // P = 1/2, R = 1/3, F1 = 2*1/(3+2) = 0.4; tokens: index 1 differs, accuracy 2/3.
        compare(scored("B-PER B-PER B-LOC", "B-PER I-PER B-LOC"), {3, 2, 1, 0.5, 1.0 / 3.0, 0.4, 2.0 / 3.0});
    }

    void insideWithoutBeginStartsAnEntity() {
        // As in conlleval and seqeval's default mode.
        QCOMPARE(EntitySpans::extract(tags("O I-PER I-PER")), Spans({{"PER", 1, 3}}));
        QCOMPARE(EntitySpans::extract(tags("I-PER")), Spans({{"PER", 0, 1}}));
        QCOMPARE(EntitySpans::extract(tags("B-PER I-LOC")), Spans({{"PER", 0, 1}, {"LOC", 1, 2}}));
        QCOMPARE(EntitySpans::extract(tags("I-PER I-LOC I-LOC O I-LOC")),
                 Spans({{"PER", 0, 1}, {"LOC", 1, 3}, {"LOC", 4, 5}}));

        // gold PER[1,3) = predicted PER[1,3): 1 of 1, P = R = F1 = 1, though only 2 of 3 tags are equal.
        compare(scored("O B-PER I-PER", "O I-PER I-PER"), {1, 1, 1, 1.0, 1.0, 1.0, 2.0 / 3.0});
    }

    void exactMatch() {
        // gold = predicted = PER[0,2) LOC[3,4): 2 of 2, P = R = F1 = 1, accuracy 4/4.
        compare(scored("B-PER I-PER O B-LOC", "B-PER I-PER O B-LOC"), {2, 2, 2, 1.0, 1.0, 1.0, 1.0});
    }

    void typeMismatchGetsNoCredit() {
        // gold PER[0,2), predicted LOC[0,2): same boundaries, wrong type: 0 correct, P = 0/1, R = 0/1,
        // F1 = 0; only the O is equal: accuracy 1/3.
        compare(scored("B-PER I-PER O", "B-LOC I-LOC O"), {1, 1, 0, 0.0, 0.0, 0.0, 1.0 / 3.0});
    }

    void boundaryErrorGetsNoCredit() {
        // gold ORG[0,1) PER[2,4); predicted ORG[0,1) PER[2,5) (one token too long): ORG matches.
        // P = 1/2, R = 1/2, F1 = 2*1/(2+2) = 0.5; index 4 differs: accuracy 4/5.
        compare(scored("B-ORG O B-PER I-PER O", "B-ORG O B-PER I-PER I-PER"), {2, 2, 1, 0.5, 0.5, 0.5, 0.8});

        // predicted ORG[0,1) PER[2,3) (one token too short): the same counts; index 3 differs: 4/5.
        compare(scored("B-ORG O B-PER I-PER O", "B-ORG O B-PER O O"), {2, 2, 1, 0.5, 0.5, 0.5, 0.8});
    }

    void spanInsideGoldSpanGetsNoCredit() {
        // gold PER[0,3), predicted PER[1,2) inside it: 0 of 1, P = R = F1 = 0; no tag equal: 0/3.
        QCOMPARE(EntitySpans::extract(tags("O B-PER O")), Spans({{"PER", 1, 2}}));
        compare(scored("B-PER I-PER I-PER", "O B-PER O"), {1, 1, 0, 0.0, 0.0, 0.0, 0.0});

        // The same span written "O I-PER O": still no credit, though the middle tag equals gold's: 1/3.
        compare(scored("B-PER I-PER I-PER", "O I-PER O"), {1, 1, 0, 0.0, 0.0, 0.0, 1.0 / 3.0});
    }

    void allOutsidePredictionScoresZero() {
        // gold PER[0,1) LOC[2,3), nothing predicted: P = 0 (0/0 by convention), R = 0/2, F1 = 0/(2+0);
        // index 1 equal: accuracy 1/3.
        compare(scored("B-PER O B-LOC", "O O O"), {2, 0, 0, 0.0, 0.0, 0.0, 1.0 / 3.0});

        // No entity on either side: every ratio is 0/0, reported as 0; the tags all agree.
        compare(scored("O O", "O O"), {0, 0, 0, 0.0, 0.0, 0.0, 1.0});

        // Nothing added: no tokens either, accuracy 0/0 reported as 0.
        const EntityF1 empty;
        compare(empty, {0, 0, 0, 0.0, 0.0, 0.0, 0.0});
        QVERIFY(empty.perType().empty());
    }

    void sentencesAccumulateWithPerTypeScores() {
        EntityF1 f1;
        // 1: gold PER[0,2) LOC[3,4), predicted PER[0,2) ORG[3,4): PER correct; 3 of 4 tags equal.
        f1.add(tags("B-PER I-PER O B-LOC"), tags("B-PER I-PER O B-ORG"));
        // 2: gold = predicted = ORG[0,2): ORG correct; 3 of 3 tags equal.
        f1.add(tags("B-ORG I-ORG O"), tags("B-ORG I-ORG O"));
        // 3: gold LOC[1,3) PER[3,4), predicted LOC[1,2) PER[3,4): PER correct; 3 of 4 tags equal.
        f1.add(tags("O B-LOC I-LOC B-PER"), tags("O B-LOC O B-PER"));
        // 4: no gold, predicted MISC[0,1); 1 of 2 tags equal.
        f1.add(tags("O O"), tags("B-MISC O"));

        // gold 2+1+2+0 = 5, predicted 2+1+2+1 = 6, correct 1+1+1+0 = 3:
        // P = 3/6 = 0.5, R = 3/5 = 0.6, F1 = 2*3/(5+6) = 6/11; accuracy (3+3+3+1)/(4+3+4+2) = 10/13.
        compare(f1, {5, 6, 3, 0.5, 0.6, 6.0 / 11.0, 10.0 / 13.0});
        QCOMPARE(f1.tokenCount(), 13);
        compareScore(f1.total(), {"", 5, 6, 3, 0.5, 0.6, 6.0 / 11.0});

        // LOC:  gold 2 (1, 3), predicted 1 (3), correct 0: P 0, R 0, F1 0.
        // MISC: gold 0, predicted 1 (4), correct 0: P 0, R 0 (0/0), F1 0.
        // ORG:  gold 1 (2), predicted 2 (1, 2), correct 1: P 1/2, R 1, F1 2*1/(1+2) = 2/3.
        // PER:  gold 2 (1, 3), predicted 2 (1, 3), correct 2: P = R = F1 = 1.
        const std::vector<EntityTypeScore> types = f1.perType();
        QCOMPARE(types.size(), 4u);
        compareScore(types[0], {"LOC", 2, 1, 0, 0.0, 0.0, 0.0});
        compareScore(types[1], {"MISC", 0, 1, 0, 0.0, 0.0, 0.0});
        compareScore(types[2], {"ORG", 1, 2, 1, 0.5, 1.0, 2.0 / 3.0});
        compareScore(types[3], {"PER", 2, 2, 2, 1.0, 1.0, 1.0});
    }

    void badInputThrowsAndCountsNothing() {
        EntityF1 f1;
        f1.add(tags("B-PER O"), tags("B-PER O"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f1.add(tags("B-PER O"), tags("B-PER")));
        // A bad predicted tag after a good gold sentence must not leave the gold entity counted.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f1.add(tags("B-LOC O"), tags("E-LOC O")));
        compare(f1, {1, 1, 1, 1.0, 1.0, 1.0, 1.0});
        QCOMPARE(f1.tokenCount(), 2);

        for (const char* bad : {"PER", "E-PER", "S-PER", "B-", "b-PER", "B_PER", "", "o"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                     EntitySpans::extract({"O", QString::fromUtf8(bad)}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 EntitySpans::extract({QStringLiteral("B-PER\u00A0X")}));
    }
};

QTEST_GUILESS_MAIN(TestEntityF1)
#include "tst_entity_f1.moc"
