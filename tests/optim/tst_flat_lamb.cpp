// The optimiser step over flat fp32 vectors (core/optim): LAMB against the golden values that
// scripts/lamb-golden.py computed independently (the same file tst_lamb checks the tensor LAMB with), the
// state's validation, gradient clipping, and the arithmetic that makes a step the same bits everywhere.
#include "core/optim/DeterministicMath.h"
#include "core/optim/FlatGradientClipping.h"
#include "core/optim/FlatLamb.h"
#include "tests/common/LambGoldenOptions.h"

#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <vector>

using sahaj::optim::DeterministicMath;
using sahaj::optim::FlatLamb;
using sahaj::optim::LambOptions;
using sahaj::optim::ParameterSegment;

namespace {

// Largest |actual - expected| / (|expected| + 1e-12) over a segment.
double relativeError(const float* actual, const std::vector<double>& expected) {
    double worst = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i)
        worst = std::max(worst, std::abs(actual[i] - expected[i]) / (std::abs(expected[i]) + 1e-12));
    return worst;
}

std::vector<ParameterSegment> threeSegments() {
    return {{"a.weight", 0, 12, 0.01}, {"b.weight", 12, 4, 0.01}, {"a.bias", 16, 3, 0.0}};
}

std::vector<float> ramp(std::size_t n, float scale) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i)
        values[i] = scale * static_cast<float>(static_cast<int>(i % 7) - 3) + 0.01f * static_cast<float>(i);
    return values;
}

} // namespace

class TestFlatLamb : public QObject {
    Q_OBJECT

    nlohmann::json golden_;

private Q_SLOTS:
    void initTestCase() {
        const std::string path =
            qEnvironmentVariable("SAHAJ_SOURCE_DIR").toStdString() + "/tests/train/data/lamb-golden.json";
        std::ifstream in(path);
        QVERIFY2(in.good(), qPrintable(QString::fromStdString("cannot open " + path)));
        golden_ = nlohmann::json::parse(in);
        QCOMPARE(golden_.at("cases").size(), size_t(3));
    }

    // Every golden case (sahajBERT's settings, clamp 10 without debiasing, adam), every parameter after every
    // step, then the moments and step counts: within fp32 rounding of the float64 reference.
    void goldenFloat32() {
        const double tolerance = 2e-5;
        const int steps = golden_.at("steps").get<int>();
        for (const auto& c : golden_.at("cases")) {
            const QString caseName = QString::fromStdString(c.at("name").get<std::string>());
            std::vector<ParameterSegment> segments;
            std::vector<float> parameters;
            for (const auto& p : c.at("params")) {
                const auto initial = p.at("initial").get<std::vector<double>>();
                segments.push_back({p.at("name").get<std::string>(), parameters.size(), initial.size(),
                                    c.at("groups").at(p.at("group").get<std::string>()).get<double>()});
                parameters.insert(parameters.end(), initial.begin(), initial.end());
            }
            FlatLamb lamb(segments, sahaj::test::lambOptionsFrom(c.at("options")));
            for (int step = 0; step < steps; ++step) {
                std::vector<float> gradient(parameters.size(), 0.0f);
                std::vector<bool> hasGradient;
                for (std::size_t k = 0; k < segments.size(); ++k) {
                    const auto& grad = c.at("params").at(k).at("grads").at(step);
                    hasGradient.push_back(!grad.is_null());
                    if (!grad.is_null()) {
                        const auto values = grad.get<std::vector<double>>();
                        std::copy(values.begin(), values.end(), gradient.begin() + segments[k].offset);
                    }
                }
                lamb.step(parameters, gradient, &hasGradient);
                for (std::size_t k = 0; k < segments.size(); ++k) {
                    const auto expected =
                        c.at("params").at(k).at("expected").at(step).get<std::vector<double>>();
                    const double error = relativeError(parameters.data() + segments[k].offset, expected);
                    QVERIFY2(error <= tolerance, qPrintable(QStringLiteral("case %1, %2, step %3: error %4")
                                                                .arg(caseName)
                                                                .arg(QString::fromStdString(segments[k].name))
                                                                .arg(step + 1)
                                                                .arg(error)));
                }
            }
            for (std::size_t k = 0; k < segments.size(); ++k) {
                const auto& p = c.at("params").at(k);
                QCOMPARE(lamb.steps()[k], p.at("final_step").get<std::int64_t>());
                QVERIFY(relativeError(lamb.firstMoments().data() + segments[k].offset,
                                      p.at("final_exp_avg").get<std::vector<double>>()) <= tolerance);
                QVERIFY(relativeError(lamb.secondMoments().data() + segments[k].offset,
                                      p.at("final_exp_avg_sq").get<std::vector<double>>()) <= tolerance);
            }
        }
    }

    // Two optimisers fed the same values end with the same bits, and a step changes every parameter.
    void sameInputsSameBits() {
        FlatLamb a(threeSegments(), LambOptions{});
        FlatLamb b(threeSegments(), LambOptions{});
        std::vector<float> pa = ramp(19, 0.5f), pb = pa;
        const std::vector<float> before = pa;
        for (int step = 0; step < 3; ++step) {
            const std::vector<float> g = ramp(19, 0.1f * static_cast<float>(step + 1));
            a.step(pa, g);
            b.step(pb, g);
        }
        QCOMPARE(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(float)), 0);
        for (std::size_t i = 0; i < pa.size(); ++i)
            QVERIFY2(pa[i] != before[i], qPrintable(QString("value %1 did not move").arg(i)));
        QCOMPARE(a.steps(), std::vector<std::int64_t>({3, 3, 3}));
    }

    void rejectsBadSegmentsAndSizes() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 FlatLamb({{"a", 0, 4, 0.0}, {"b", 5, 2, 0.0}}, LambOptions{})); // a gap
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 FlatLamb({{"a", 0, 4, 0.0}, {"a", 4, 2, 0.0}}, LambOptions{})); // twice
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlatLamb({{"a", 0, 0, 0.0}}, LambOptions{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlatLamb({{"a", 0, 3, -1.0}}, LambOptions{}));
        LambOptions badBeta;
        badBeta.beta1 = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlatLamb(threeSegments(), badBeta));
        FlatLamb lamb(threeSegments(), LambOptions{});
        std::vector<float> parameters(19, 1.0f), shortGradient(18, 1.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lamb.step(parameters, shortGradient));
        QCOMPARE(parameters, std::vector<float>(19, 1.0f));
        QCOMPARE(lamb.steps(), std::vector<std::int64_t>({0, 0, 0}));
    }

    // A bad state names its problem and changes nothing.
    void stateIsValidatedBeforeItIsTaken() {
        FlatLamb lamb(threeSegments(), LambOptions{});
        std::vector<float> parameters = ramp(19, 1.0f);
        lamb.step(parameters, ramp(19, 0.2f));
        const std::vector<float> m = lamb.firstMoments(), v = lamb.secondMoments();
        const auto refused = [&](std::vector<float> first, std::vector<float> second,
                                 std::vector<std::int64_t> steps, const char* expected) {
            try {
                lamb.setState(std::move(first), std::move(second), std::move(steps));
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).contains(expected), e.what());
                QCOMPARE(lamb.firstMoments(), m);
                QCOMPARE(lamb.secondMoments(), v);
                QCOMPARE(lamb.steps(), std::vector<std::int64_t>({1, 1, 1}));
                return;
            }
            QFAIL("a bad state was taken");
        };
        std::vector<float> negative = v;
        negative[17] = -1e30f;
        refused(m, negative, {1, 1, 1}, "'a.bias' has negative second moments");
        std::vector<float> infinite = m;
        infinite[3] = std::numeric_limits<float>::infinity();
        refused(infinite, v, {1, 1, 1}, "'a.weight' has non-finite moments");
        refused(m, std::vector<float>(18), {1, 1, 1}, "moments of 19 and 18 values");
        refused(m, v, {1, -1, 1}, "'b.weight' has a negative step");
        refused(m, v, {1, 1}, "2 step counts for 3 parameters");
        // A donor's step count beyond any run would overflow at the next step.
        refused(m, v, {1, std::numeric_limits<std::int64_t>::max(), 1}, "'b.weight' has a step count beyond");
        lamb.setState(std::vector<float>(19, 0.5f), std::vector<float>(19, 0.25f), {7, 8, 9});
        QCOMPARE(lamb.steps(), std::vector<std::int64_t>({7, 8, 9}));
        QCOMPARE(lamb.firstMoments(), std::vector<float>(19, 0.5f));
    }

    void clippingScalesToTheNormAndSkipsNonFinite() {
        std::vector<float> gradient{3.0f, 4.0f}; // norm 5
        QCOMPARE(sahaj::optim::clipFlatGradient(gradient, 1.0), 5.0);
        QVERIFY(std::abs(gradient[0] - 0.6f) < 1e-6f && std::abs(gradient[1] - 0.8f) < 1e-6f);
        std::vector<float> small{0.3f, 0.4f};
        QVERIFY(std::abs(sahaj::optim::clipFlatGradient(small, 1.0) - 0.5) < 1e-7);
        QCOMPARE(small, std::vector<float>({0.3f, 0.4f})); // under the limit: untouched
        std::vector<float> bad{1.0f, std::numeric_limits<float>::quiet_NaN()};
        QVERIFY(!std::isfinite(sahaj::optim::clipFlatGradient(bad, 1.0)));
        QCOMPARE(bad[0], 1.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sahaj::optim::clipFlatGradient(small, 0.0));
    }

    // The debiasing power agrees with libm's pow (repeated squaring doubles the relative rounding error at
    // each of its log2(t) squarings: about 1e-11 at t = 125,000, far below what fp32 parameters resolve),
    // and the sum of squares with a plain double sum, whatever the count's remainder modulo 8.
    void deterministicMathAgreesWithLibm() {
        for (std::uint64_t t : {0ull, 1ull, 2ull, 5ull, 1000ull, 125000ull}) {
            for (double base : {0.9, 0.999}) {
                const double expected = std::pow(base, static_cast<double>(t));
                QVERIFY2(std::abs(DeterministicMath::power(base, t) - expected) <= 1e-10 * expected + 1e-300,
                         qPrintable(QString("%1^%2").arg(base).arg(t)));
            }
        }
        for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 1001u}) {
            const std::vector<float> values = ramp(n, 0.25f);
            double expected = 0.0;
            for (float value : values)
                expected += static_cast<double>(value) * value;
            QVERIFY(std::abs(DeterministicMath::sumOfSquares(values.data(), n) - expected) <=
                    1e-12 * expected);
        }
    }
};

QTEST_APPLESS_MAIN(TestFlatLamb)
#include "tst_flat_lamb.moc"
