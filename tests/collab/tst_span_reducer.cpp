// The aggregator's side of a round alone (SpanReducer), in milliseconds: the weighted mean of a part once
// every sender still counted has contributed, the own values counted from the start, senders left out,
// duplicates ignored, the mean rounded as the wire carries it, an overflow reported, CenteredClip in place
// of the mean. AllReduceRound receives, checks and replies around it (tst_allreduce_processes).
#include "core/collab/CenteredClip.h"
#include "core/collab/SpanReducer.h"
#include "core/collab/TensorEncoding.h"

#include <QtTest>

#include <limits>

using namespace sahaj;
using collab::SpanReducer;

namespace {

// Two parts of 3 and 2 values; members 0 (this aggregator, sending), 1 and 2 send, 3 is an auxiliary.
const std::vector<float> kOwn{1, 2, 3, 4, 5};
// A sum of weight 3 is scaled by this (the reducer multiplies by the weight's inverse).
const float kThird = static_cast<float>(1.0 / 3.0);

SpanReducer reducerOf(const std::vector<float>& own, wire::Encoding encoding = collab::TensorEncoding::fp32(),
                      std::optional<collab::CenteredClipOptions> clip = std::nullopt) {
    SpanReducer reducer({3, 2}, {true, true, true, false}, 0, own, clip, encoding);
    reducer.setWeight(0, 1.0);
    reducer.setWeight(1, 2.0);
    reducer.setWeight(2, 1.0);
    return reducer;
}

std::vector<float> valuesOf(std::span<const float> values) {
    return {values.begin(), values.end()};
}

} // namespace

class TestSpanReducer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aPartEndsWhenEverySenderCameWithTheirWeightedMean() {
        SpanReducer reducer = reducerOf(kOwn);
        QCOMPARE(reducer.partCount(), std::size_t(2));
        QVERIFY(reducer.completeParts().empty());
        const float one[] = {7, 8, 9};
        reducer.add(0, 1, one);
        QVERIFY(reducer.completeParts().empty());    // member 2 still owes it
        QVERIFY(reducer.owes(2) && reducer.owes(1)); // member 1 still owes part 1
        const float two[] = {3, 3, 3};
        reducer.add(0, 2, two);
        QCOMPARE(reducer.completeParts(), std::vector<std::size_t>{0});
        const SpanReducer::Mean mean = reducer.finish(0);
        QVERIFY(mean.finite);
        QCOMPARE(mean.weight, 4.0);
        QCOMPARE(mean.contributors, 3u);
        // (1·1 + 2·7 + 1·3) / 4, (1·2 + 2·8 + 1·3) / 4, (1·3 + 2·9 + 1·3) / 4.
        QCOMPARE(valuesOf(mean.values), (std::vector<float>{4.5f, 5.25f, 6.0f}));
        QVERIFY(reducer.done(0) && !reducer.allDone());
        QVERIFY(reducer.completeParts().empty());
        QCOMPARE(reducer.takeMean(0), (std::vector<float>{4.5f, 5.25f, 6.0f}));
    }

    void aSenderLeftOutNoLongerHoldsAPartAndADuplicateCountsOnce() {
        SpanReducer reducer = reducerOf(kOwn);
        const float one[] = {7, 9};
        reducer.add(1, 1, one);
        reducer.add(1, 1, one); // a repeat: no second weight
        QVERIFY(reducer.exclude(2));
        QVERIFY(!reducer.exclude(2));
        QCOMPARE(reducer.completeParts(), std::vector<std::size_t>{1}); // part 0 waits for member 1
        const SpanReducer::Mean second = reducer.finish(1);
        QCOMPARE(second.weight, 3.0);
        QCOMPARE(valuesOf(second.values), (std::vector<float>{18 * kThird, 23 * kThird}));
        const float late[] = {100, 100};
        reducer.add(1, 2, late); // after the part went ahead: nothing
        QCOMPARE(valuesOf(reducer.mean(1)), (std::vector<float>{18 * kThird, 23 * kThird}));
        // Part 0 goes ahead without member 2 once member 1's values came.
        QVERIFY(reducer.owes(1));
        const float zero[] = {0, 0, 0};
        reducer.add(0, 1, zero);
        QCOMPARE(reducer.completeParts(), std::vector<std::size_t>{0});
        QCOMPARE(valuesOf(reducer.finish(0).values), (std::vector<float>{kThird, 2 * kThird, 3 * kThird}));
        QVERIFY(reducer.allDone());
    }

    void theMeanIsWhatTheWireCarries() {
        SpanReducer reducer = reducerOf(kOwn, collab::TensorEncoding::fp16());
        const float third[] = {0.1f, 0.2f, 0.3f};
        reducer.add(0, 1, third);
        reducer.add(0, 2, third);
        std::vector<float> mean = valuesOf(reducer.finish(0).values);
        std::vector<float> wire = mean;
        collab::TensorEncoding::roundTrip(wire.data(), 3, collab::TensorEncoding::fp16());
        QCOMPARE(mean, wire); // rounding again changes nothing: it was rounded
        QVERIFY(mean[0] != (1.0f + 3 * 0.1f) / 4.0f);
    }

    void nothingWeighedGivesZerosAndAnOverflowIsSaid() {
        SpanReducer idle({2}, {true, true}, 0, std::span<const float>(kOwn.data(), 2), std::nullopt,
                         collab::TensorEncoding::fp32());
        idle.setWeight(0, 0.0);
        idle.exclude(1);
        QCOMPARE(valuesOf(idle.finish(0).values), (std::vector<float>{0, 0}));

        SpanReducer huge({1}, {true, true}, 0, std::span<const float>(kOwn.data(), 1), std::nullopt,
                         collab::TensorEncoding::fp32());
        huge.setWeight(0, 1.0);
        huge.setWeight(1, 1e30);
        const float big[] = {std::numeric_limits<float>::max()};
        huge.add(0, 1, big);
        QVERIFY(!huge.finish(0).finite);
        huge.dropAll();
        QVERIFY(huge.allDone() && huge.mean(0).empty());
    }

    void anAuxiliaryAggregatorCountsNoValuesOfItsOwn() {
        SpanReducer reducer({2}, {false, true, true}, 0, {}, std::nullopt, collab::TensorEncoding::fp32());
        reducer.setWeight(1, 1.0);
        reducer.setWeight(2, 3.0);
        const float one[] = {4, 8};
        const float two[] = {0, 4};
        reducer.add(0, 1, one);
        QVERIFY(reducer.completeParts().empty());
        reducer.add(0, 2, two);
        const SpanReducer::Mean mean = reducer.finish(0);
        QCOMPARE(mean.contributors, 2u);
        QCOMPARE(valuesOf(mean.values), (std::vector<float>{1, 5}));
    }

    // CenteredClip in place of the mean: the same aggregate as CenteredClip over the senders that came.
    void centeredClipReplacesTheMean() {
        collab::CenteredClipOptions clip;
        clip.tau = 1.0;
        SpanReducer reducer = reducerOf(kOwn, collab::TensorEncoding::fp32(), clip);
        const float near[] = {1.5f, 2.5f, 3.5f};
        const float far[] = {1000, -1000, 1000};
        reducer.add(0, 1, near);
        reducer.add(0, 2, far);
        const std::vector<float> clipped = valuesOf(reducer.finish(0).values);
        const std::vector<float> expected =
            collab::CenteredClip::aggregate({kOwn.data(), near, far}, {1.0, 2.0, 1.0}, 3, clip).values;
        QCOMPARE(clipped, expected);
        QVERIFY(std::abs(clipped[1]) < 10.0f); // the far sender pulled by tau at most
    }
};

QTEST_GUILESS_MAIN(TestSpanReducer)
#include "tst_span_reducer.moc"
