// Initial parameters drawn in plain C++ (core/optim): the same bits for the same seed and name, the
// distribution the rule asks for, constants and an embedding's zero row, and the logarithm it relies on.
#include "core/optim/DeterministicMath.h"
#include "core/optim/ParameterInitializer.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <vector>

using sahaj::optim::DeterministicMath;
using sahaj::optim::InitialValueRule;
using sahaj::optim::ParameterInitializer;

namespace {

InitialValueRule normal(double std) {
    return {InitialValueRule::Kind::Normal, std, 0.0, std::nullopt, 0};
}

std::vector<float> drawn(std::size_t n, const InitialValueRule& rule, std::uint64_t seed,
                         const std::string& name) {
    std::vector<float> values(n);
    ParameterInitializer::fill(values, rule, seed, name);
    return values;
}

} // namespace

class TestParameterInitializer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameSeedAndNameSameBits() {
        const auto a = drawn(1001, normal(0.02), 42, "albert.encoder.ffn.weight");
        const auto b = drawn(1001, normal(0.02), 42, "albert.encoder.ffn.weight");
        QCOMPARE(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
        QVERIFY(drawn(1001, normal(0.02), 43, "albert.encoder.ffn.weight") != a);
        QVERIFY(drawn(1001, normal(0.02), 42, "albert.encoder.ffn.bias") != a);
    }

    // 200,000 draws: mean within 5 standard errors of 0, standard deviation within 1 %, and about 4.55 % of
    // the values beyond two standard deviations, as a normal distribution has.
    void drawsFollowTheNormalDistribution() {
        const double std = 0.02;
        const auto values = drawn(200000, normal(std), 7, "w");
        double sum = 0.0, squares = 0.0;
        std::size_t beyondTwo = 0;
        for (float value : values) {
            sum += value;
            squares += static_cast<double>(value) * value;
            beyondTwo += std::abs(value) > 2 * std ? 1 : 0;
        }
        const double n = static_cast<double>(values.size());
        const double mean = sum / n;
        const double deviation = std::sqrt(squares / n - mean * mean);
        QVERIFY2(std::abs(mean) < 5 * std / std::sqrt(n), qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(deviation / std - 1.0) < 0.01, qPrintable(QString::number(deviation)));
        const double tail = static_cast<double>(beyondTwo) / n;
        QVERIFY2(std::abs(tail - 0.0455) < 0.003, qPrintable(QString::number(tail)));
    }

    void constantsAndTheZeroRow() {
        const InitialValueRule ones{InitialValueRule::Kind::Constant, 0.0, 1.0, std::nullopt, 0};
        QCOMPARE(drawn(5, ones, 1, "LayerNorm.weight"), std::vector<float>(5, 1.0f));
        InitialValueRule padded = normal(0.02);
        padded.zeroRow = 1;
        padded.rowLength = 4;
        const auto values = drawn(12, padded, 1, "word_embeddings.weight");
        for (std::size_t i = 0; i < 12; ++i)
            QVERIFY2((values[i] == 0.0f) == (i >= 4 && i < 8), qPrintable(QString("value %1").arg(i)));
        padded.zeroRow = 3; // rows 0..2 only
        std::vector<float> three(12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ParameterInitializer::fill(three, padded, 1, "w"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ParameterInitializer::fill(three, normal(-1.0), 1, "w"));
    }

    void logarithmAgreesWithLibm() {
        for (double x : {1e-300, 1e-10, 0.001, 0.5, 0.7071, 0.99999, 1.0, 1.5, 2.0, 10.0, 12345.678, 1e300}) {
            const double expected = std::log(x);
            QVERIFY2(std::abs(DeterministicMath::log(x) - expected) <=
                         4e-16 * std::max(1.0, std::abs(expected)),
                     qPrintable(QString::number(x)));
        }
        QVERIFY(std::isnan(DeterministicMath::log(0.0)));
        QVERIFY(std::isnan(DeterministicMath::log(-1.0)));
    }
};

QTEST_APPLESS_MAIN(TestParameterInitializer)
#include "tst_parameter_initializer.moc"
