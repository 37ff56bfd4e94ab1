// The member's side of a round alone (PartContainer), in milliseconds: its parts owed to every other
// aggregator with a span, in order; the averages coming back kept apart from its vector until the whole
// span is in and taken; repeats ignored; a failed span keeping the local values; the span's hash for its
// seal. AllReduceRound sends, receives and checks around it (tst_allreduce_processes).
#include "core/collab/PartContainer.h"
#include "core/collab/SpanSeals.h"
#include "core/collab/TensorEncoding.h"
#include "core/security/Sha256.h"

#include <QtTest>

#include <numeric>
#include <zmq.hpp>

using namespace sahaj;
using collab::PartContainer;
using collab::PartitionPlan;
using collab::TensorEncoding;

namespace {

// Four members: spans of 4, 0, 3 and 5 values in parts of at most 2. Member 0 is this one, member 1
// aggregates nothing, member 2's span is [4, 7) in parts of 2 and 1, member 3's [7, 12) in 2, 2 and 1.
PartitionPlan planOfFour() {
    return PartitionPlan({4, 0, 3, 5}, 12, 2);
}

std::vector<float> ownValues() {
    std::vector<float> values(12);
    std::iota(values.begin(), values.end(), 1.0f);
    return values;
}

zmq::message_t frameOf(std::vector<float> values, const wire::Encoding& encoding = TensorEncoding::fp32()) {
    return TensorEncoding::encode(values.data(), static_cast<std::int64_t>(values.size()), encoding);
}

std::vector<float> valuesOf(std::span<const float> values) {
    return {values.begin(), values.end()};
}

} // namespace

class TestPartContainer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void partsGoInOrderToEveryOtherAggregatorWithASpan() {
        const PartitionPlan plan = planOfFour();
        PartContainer parts(plan, TensorEncoding::fp32(), 0, ownValues());
        QVERIFY(parts.sends());
        QCOMPARE(parts.aggregators(), (std::vector<std::size_t>{2, 3}));
        QCOMPARE(parts.nextPart(1), std::nullopt); // no span
        QCOMPARE(parts.nextPart(0), std::nullopt); // its own span stays with its reducer
        for (std::int64_t p = 0; p < 3; ++p) {
            QCOMPARE(parts.nextPart(3), std::optional<std::int64_t>(p));
            parts.sent(3);
        }
        QCOMPARE(parts.nextPart(3), std::nullopt);
        QCOMPARE(parts.nextPart(2), std::optional<std::int64_t>(0));
        QVERIFY(parts.outstanding()); // nothing came back yet
        QCOMPARE(valuesOf(parts.values(plan.part(3, 1))), (std::vector<float>{10, 11}));
    }

    void anAuxiliarySendsNothingAndAwaitsNothing() {
        const PartitionPlan plan = planOfFour();
        PartContainer parts(plan, TensorEncoding::fp32(), 1, {});
        QVERIFY(!parts.sends());
        QVERIFY(parts.aggregators().empty());
        QCOMPARE(parts.nextPart(2), std::nullopt);
        QVERIFY(!parts.outstanding());
    }

    void averagesStayApartUntilTheWholeSpanIsTaken() {
        const PartitionPlan plan = planOfFour();
        PartContainer parts(plan, TensorEncoding::fp32(), 0, ownValues());
        QVERIFY(parts.awaits(2, 1));
        QCOMPARE(valuesOf(parts.place(2, 1, frameOf({-7}))), std::vector<float>{-7});
        QVERIFY(!parts.received(2, 1));
        QCOMPARE(valuesOf(parts.values(plan.span(2))), (std::vector<float>{5, 6, 7})); // the local values
        QCOMPARE(parts.nextPart(2), std::optional<std::int64_t>(0)); // still owed: not whole
        parts.place(2, 0, frameOf({-5, -6}));
        QVERIFY(parts.received(2, 0));
        QVERIFY(parts.whole(2) && !parts.taken(2));
        QCOMPARE(parts.nextPart(2), std::nullopt); // whatever is unsent would be ignored
        QCOMPARE(valuesOf(parts.values(plan.span(2))), (std::vector<float>{5, 6, 7}));

        const std::vector<float> averaged{-5, -6, -7};
        security::Sha256 hash;
        collab::SpanSeals::addValues(hash, averaged.data(), averaged.size());
        QCOMPARE(parts.digest(2), hash.result().toStdString());

        parts.take(2);
        QVERIFY(parts.taken(2));
        std::vector<float> expected = ownValues();
        std::copy(averaged.begin(), averaged.end(), expected.begin() + 4);
        QCOMPARE(valuesOf(parts.values()), expected);
        QVERIFY(parts.outstanding()); // member 3's span is still out
        parts.fail(3);
        QVERIFY(!parts.outstanding());
        QCOMPARE(parts.takeValues(), expected); // member 3's span keeps the local values
    }

    void aRepeatedOrUnplannedAverageIsNotAwaited() {
        const PartitionPlan plan = planOfFour();
        PartContainer parts(plan, TensorEncoding::fp32(), 0, ownValues());
        parts.place(3, 2, frameOf({1}));
        QVERIFY(!parts.received(3, 2)); // counted; parts 0 and 1 still out
        QVERIFY(!parts.awaits(3, 2));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, parts.place(3, 2, frameOf({2})));
        QVERIFY(!parts.awaits(3, 3));  // past the span's parts
        QVERIFY(!parts.awaits(3, -1)); // before them
        QVERIFY(!parts.awaits(1, 0));  // a member without a span
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, parts.awaits(4, 0));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, parts.digest(3)); // not whole
        QVERIFY_THROWS_EXCEPTION(std::logic_error, parts.take(3));
    }

    void aFailedSpanKeepsTheLocalValues() {
        const PartitionPlan plan = planOfFour();
        PartContainer parts(plan, TensorEncoding::fp32(), 0, ownValues());
        parts.place(2, 0, frameOf({0, 0}));
        QVERIFY(parts.received(2, 0) == false);
        parts.fail(2);
        QVERIFY(parts.failed(2));
        QVERIFY(!parts.awaits(2, 1));
        QCOMPARE(parts.nextPart(2), std::nullopt);
        QVERIFY(!parts.received(2, 1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, parts.take(2));
        QCOMPARE(parts.takeValues(), ownValues());
    }

    void aFrameOfTheWrongSizeOrWithNonFiniteValuesIsRefusedAndStillAwaited() {
        const PartitionPlan plan = planOfFour();
        PartContainer parts(plan, TensorEncoding::fp32(), 0, ownValues());
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parts.place(3, 0, frameOf({1, 2, 3})));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 parts.place(3, 0, frameOf({1, std::numeric_limits<float>::infinity()})));
        QVERIFY(parts.awaits(3, 0));
        parts.place(3, 0, frameOf({1, 2}));
        QVERIFY(!parts.received(3, 0)); // parts 1 and 2 still out
    }

    void averagesAreDecodedAsTheWireCarriesThem() {
        const PartitionPlan plan = planOfFour();
        PartContainer parts(plan, TensorEncoding::fp16(), 0, ownValues());
        std::vector<float> third{1.0f / 3.0f};
        const std::vector<float> placed = valuesOf(parts.place(2, 1, frameOf(third, TensorEncoding::fp16())));
        TensorEncoding::roundTrip(third.data(), 1, TensorEncoding::fp16());
        QCOMPARE(placed, third);
        QVERIFY(placed.front() != 1.0f / 3.0f);
    }

    void aVectorOfAnotherSizeIsRefused() {
        const PartitionPlan plan = planOfFour();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 PartContainer(plan, TensorEncoding::fp32(), 0, std::vector<float>(11)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PartContainer(plan, TensorEncoding::fp32(), 4, {}));
    }
};

QTEST_GUILESS_MAIN(TestPartContainer)
#include "tst_part_container.moc"
