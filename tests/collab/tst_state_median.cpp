// The median a newcomer loads when no state has a majority of the donors behind it (StateVote): each
// value is the median of the donors' values, so one lying donor of three moves none of them past an
// honest donor's value, however far it lies; states of different epochs or layouts are refused.
#include "core/collab/StateMedian.h"
#include "tests/common/TestFiles.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace sahaj::collab;
using sahaj::array::HostArray;
using sahaj::test::errorOf;

namespace {

// A state of epoch 7 whose values are `base` plus a small ramp, with a step count `step`.
TrainingState stateOf(float base, std::int64_t step, std::uint64_t epoch = 7) {
    std::vector<float> weights(12), moments(12);
    for (std::size_t i = 0; i < weights.size(); ++i) {
        weights[i] = base + 0.01f * static_cast<float>(i);
        moments[i] = std::abs(base) * 0.5f + 0.001f * static_cast<float>(i);
    }
    TrainingState state;
    state.epoch = epoch;
    state.step = step;
    state.parameters["w"] = HostArray::ofFloats({3, 4}, weights.data());
    state.optimizer["w.exp_avg_sq"] = HostArray::ofFloats({3, 4}, moments.data());
    state.optimizer["w.step"] = HostArray::ofInteger(step);
    return state;
}

} // namespace

class TestStateMedian : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachValueIsTheMedianOfTheDonors() {
        const TrainingState median = StateMedian::of({stateOf(3, 10), stateOf(1, 12), stateOf(2, 11)});
        QCOMPARE(median.epoch, std::uint64_t(7));
        QCOMPARE(median.step, std::int64_t(11));
        QCOMPARE(median.optimizer.at("w.step").toInteger(), std::int64_t(11));
        QVERIFY(median.parameters.at("w") == stateOf(2, 11).parameters.at("w"));
        QVERIFY(median.optimizer.at("w.exp_avg_sq") == stateOf(2, 11).optimizer.at("w.exp_avg_sq"));
        // One state: itself.
        QVERIFY(StateMedian::of({stateOf(5, 3)}).parameters == stateOf(5, 3).parameters);
    }

    // The defence: a liar's values, a billion times the honest ones, and a step count far ahead, move
    // nothing past the honest donors' own values (a mean would take a third of the lie).
    void oneLiarOfThreeMovesNothingPastAnHonestValue() {
        const TrainingState low = stateOf(1.0f, 20);
        const TrainingState high = stateOf(1.5f, 21);
        const TrainingState liar = stateOf(1e9f, 1'000'000);
        for (const std::vector<TrainingState>& order :
             {std::vector{liar, low, high}, std::vector{low, liar, high}, std::vector{low, high, liar}}) {
            const TrainingState median = StateMedian::of(order);
            QVERIFY(median.step >= 20 && median.step <= 21);
            for (const auto& [arrays, name] :
                 {std::pair{&median.parameters, "w"}, std::pair{&median.optimizer, "w.exp_avg_sq"}}) {
                const std::vector<float> got = arrays->at(name).toFloats();
                const auto honest = [&](const TrainingState& s) {
                    return (arrays == &median.parameters ? s.parameters : s.optimizer).at(name).toFloats();
                };
                const std::vector<float> a = honest(low), b = honest(high);
                for (std::size_t i = 0; i < got.size(); ++i)
                    QVERIFY2(got[i] >= std::min(a[i], b[i]) && got[i] <= std::max(a[i], b[i]),
                             qPrintable(QStringLiteral("%1[%2] = %3").arg(name).arg(i).arg(got[i])));
            }
        }
    }

    void statesThatDoNotMatchAreRefused() {
        QVERIFY(errorOf([] { StateMedian::of({}); }).contains("no state"));
        QVERIFY(errorOf([] {
                    StateMedian::of({stateOf(1, 1), stateOf(1, 1, 8), stateOf(1, 1)});
                }).contains("epochs 7 and 8"));
        TrainingState reshaped = stateOf(1, 1);
        std::vector<float> values(12, 0.0f);
        reshaped.parameters["w"] = HostArray::ofFloats({4, 3}, values.data());
        QVERIFY(errorOf([&] {
                    StateMedian::of({stateOf(1, 1), reshaped, stateOf(1, 1)});
                }).contains("type or shape of w"));
        TrainingState renamed = stateOf(1, 1);
        renamed.parameters["v"] = renamed.parameters.at("w");
        QVERIFY(errorOf([&] {
                    StateMedian::of({stateOf(1, 1), stateOf(1, 1), renamed});
                }).contains("names of their parameters"));
    }
};

QTEST_GUILESS_MAIN(TestStateMedian)
#include "tst_state_median.moc"
