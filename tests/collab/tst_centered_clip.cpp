// CenteredClip, the robust alternative to the weighted mean: the mean when nothing is clipped, a result near
// the honest mean when a minority sends huge or flipped vectors, weights, the median it starts from, the
// errors it names, determinism, and its speed on a full part of a span.
#include "core/collab/CenteredClip.h"
#include "tests/common/TestFiles.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using sahaj::collab::CenteredClip;
using sahaj::collab::CenteredClipOptions;
using sahaj::collab::CenteredClipResult;
using sahaj::test::errorOf;

namespace {

using Vector = std::vector<float>;

// Senders' vectors and weights, in the form aggregate() takes.
struct Senders {
    std::vector<Vector> vectors;
    std::vector<double> weights;

    void add(Vector vector, double weight) {
        vectors.push_back(std::move(vector));
        weights.push_back(weight);
    }

    std::vector<const float*> pointers() const {
        std::vector<const float*> result;
        for (const Vector& vector : vectors)
            result.push_back(vector.data());
        return result;
    }

    std::size_t count() const { return vectors.empty() ? 0 : vectors.front().size(); }

    CenteredClipResult aggregate(const CenteredClipOptions& options = {}) const {
        return CenteredClip::aggregate(pointers(), weights, count(), options);
    }
};

// Gradients of honest peers: one shared direction plus each peer's own noise of about the same norm, the
// regime of large-batch training where the per-peer noise is what the averaging removes.
std::vector<Vector> honestVectors(int senders, std::size_t count, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<float> normal;
    Vector shared(count);
    for (float& value : shared)
        value = normal(random);
    std::vector<Vector> result;
    for (int i = 0; i < senders; ++i) {
        Vector vector = shared;
        for (float& value : vector)
            value += normal(random);
        result.push_back(std::move(vector));
    }
    return result;
}

// A direction uniform on the sphere, scaled to `norm`.
Vector randomDirection(std::size_t count, double norm, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<double> normal;
    std::vector<double> direction(count);
    double squared = 0.0;
    for (double& value : direction) {
        value = normal(random);
        squared += value * value;
    }
    Vector result(count);
    for (std::size_t j = 0; j < count; ++j)
        result[j] = static_cast<float>(direction[j] * norm / std::sqrt(squared));
    return result;
}

std::vector<double> weightedMean(const std::vector<Vector>& vectors, const std::vector<double>& weights) {
    std::vector<double> mean(vectors.front().size(), 0.0);
    double total = 0.0;
    for (std::size_t i = 0; i < vectors.size(); ++i) {
        for (std::size_t j = 0; j < mean.size(); ++j)
            mean[j] += weights[i] * vectors[i][j];
        total += weights[i];
    }
    for (double& value : mean)
        value /= total;
    return mean;
}

template <typename A, typename B>
double distanceBetween(const A& a, const B& b) {
    double squared = 0.0;
    for (std::size_t j = 0; j < a.size(); ++j) {
        const double d = static_cast<double>(a[j]) - static_cast<double>(b[j]);
        squared += d * d;
    }
    return std::sqrt(squared);
}

double norm(const Vector& vector) {
    return distanceBetween(vector, Vector(vector.size(), 0.0f));
}

Vector scaled(const Vector& vector, float factor) {
    Vector result = vector;
    for (float& value : result)
        value *= factor;
    return result;
}

// Root mean square distance of the vectors from their mean: the honest senders' spread r.
double spreadOf(const std::vector<Vector>& vectors) {
    const std::vector<double> mean = weightedMean(vectors, std::vector<double>(vectors.size(), 1.0));
    double squared = 0.0;
    for (const Vector& vector : vectors)
        squared += std::pow(distanceBetween(vector, mean), 2);
    return std::sqrt(squared / static_cast<double>(vectors.size()));
}

// The median of each coordinate, computed by sorting (the class uses nth_element).
std::vector<double> sortedMedian(const std::vector<Vector>& vectors) {
    std::vector<double> median(vectors.front().size());
    for (std::size_t j = 0; j < median.size(); ++j) {
        std::vector<double> column;
        for (const Vector& vector : vectors)
            column.push_back(vector[j]);
        std::sort(column.begin(), column.end());
        const std::size_t n = column.size();
        median[j] = n % 2 == 1 ? column[n / 2] : 0.5 * (column[n / 2 - 1] + column[n / 2]);
    }
    return median;
}

bool bitIdentical(const Vector& a, const Vector& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

class TestCenteredClip : public QObject {
    Q_OBJECT

private:
    // Six honest senders of weight 1 and two attackers far away whose pulls add up to `pull` (2 when they
    // point the same way, √2 when orthogonal). At the fixed point each attacker pulls with length τ at most,
    // and the honest senders, nearly orthogonal around their mean μ at distance r (the spread), pull back
    // with h·s/max(τ, d) per unit of τ, where s = ‖v − μ‖ and d = √(r² + s²) is their distance from v. So
    // s ≈ pull·max(τ, d)/h, with d = r/√(1 − (pull/h)²) when they are clipped too. Asserted with 25 % to
    // spare for the finite dimension; the plain mean is hundreds of r away, the median about half an r.
    static void checkAttack(const Vector& firstAttacker, const Vector& secondAttacker,
                            const std::vector<Vector>& honest, double pull) {
        Senders senders;
        for (const Vector& vector : honest)
            senders.add(vector, 1.0);
        senders.add(firstAttacker, 1.0);
        senders.add(secondAttacker, 1.0);
        const std::vector<double> honestMean = weightedMean(honest, std::vector<double>(honest.size(), 1.0));
        const double r = spreadOf(honest);
        const double h = static_cast<double>(honest.size());

        const CenteredClipResult result = senders.aggregate();
        const double clipError = distanceBetween(result.values, honestMean) / r;
        const double meanError =
            distanceBetween(weightedMean(senders.vectors, senders.weights), honestMean) / r;
        const double medianError = distanceBetween(sortedMedian(senders.vectors), honestMean) / r;
        const double tau = result.tau / r;
        const double predicted = pull * std::max(tau, 1.0 / std::sqrt(1.0 - std::pow(pull / h, 2))) / h;
        qInfo("attack: centered clip %.3f·r from the honest mean (predicted %.3f·r, median %.3f·r, mean "
              "%.1f·r), tau %.3f·r, %d iterations, %d clipped",
              clipError, predicted, medianError, meanError, tau, result.iterations, result.clipped);
        // The automatic τ is an honest sender's distance from the median: at least about r (no point is
        // closer to all of them on average than their mean), and more only by the median's own offset.
        QVERIFY2(tau > 0.95 && tau < 1.3, qPrintable(QString::number(tau)));
        QVERIFY2(clipError < 1.25 * predicted, qPrintable(QString::number(clipError)));
        QVERIFY(clipError < medianError); // the clipping steps improve on where they start
        QVERIFY(meanError > 100.0);
        QVERIFY(result.clipped >= 2);
        QVERIFY(result.iterations < CenteredClipOptions{}.maxIterations); // converged
    }

private Q_SLOTS:
    void largeTauGivesTheWeightedMean() {
        Senders senders;
        const std::vector<Vector> vectors = honestVectors(5, 1000, 1);
        const double weights[] = {1.0, 3.0, 0.5, 2.0, 7.0};
        for (std::size_t i = 0; i < vectors.size(); ++i)
            senders.add(vectors[i], weights[i]);
        CenteredClipOptions options;
        options.tau = 1e30;
        const CenteredClipResult result = senders.aggregate(options);
        const std::vector<double> mean = weightedMean(senders.vectors, senders.weights);
        QCOMPARE(result.values.size(), mean.size());
        for (std::size_t j = 0; j < mean.size(); ++j)
            QVERIFY2(std::abs(result.values[j] - mean[j]) < 1e-5, qPrintable(QString::number(j)));
        QCOMPARE(result.tau, 1e30);
        QCOMPARE(result.clipped, 0);
        // Nothing clipped: the first step lands on the mean, the second finds nothing left to move.
        QCOMPARE(result.iterations, 2);
        // The unweighted mean is elsewhere: the weights are what made the result.
        QVERIFY(distanceBetween(weightedMean(vectors, std::vector<double>(5, 1.0)), mean) > 1.0);
    }

    void flippedAndScaledAttackersAreClipped() {
        const std::vector<Vector> honest = honestVectors(6, 16384, 2);
        // Both send an honest gradient ×(−1000): their pulls add up, the strongest two senders can do.
        const Vector flipped = scaled(honest[0], -1000.0f);
        checkAttack(flipped, flipped, honest, 2.0);
    }

    // Independent random directions are nearly orthogonal in high dimensions: the two pulls add to √2.
    void randomDirectionAttackersAreClipped() {
        const std::vector<Vector> honest = honestVectors(6, 16384, 3);
        const double huge = 1000.0 * norm(honest[0]);
        checkAttack(randomDirection(16384, huge, 4), randomDirection(16384, huge, 5), honest, std::sqrt(2.0));
    }

    // A flipped honest gradient and a random direction: orthogonal pulls again.
    void mixedAttackersAreClipped() {
        const std::vector<Vector> honest = honestVectors(6, 16384, 6);
        checkAttack(scaled(honest[1], -1000.0f), randomDirection(16384, 1000.0 * norm(honest[0]), 7), honest,
                    std::sqrt(2.0));
    }

    // Without attackers the automatic τ (the senders' median distance from the median, a little more than
    // their distance from the mean) clips at most the farthest few, and only barely: the honest case loses
    // almost nothing against the weighted mean (the median it starts from is a quarter of r away).
    void honestSendersAloneStayAtTheirMean() {
        Senders senders;
        const std::vector<Vector> honest = honestVectors(6, 16384, 16);
        for (std::size_t i = 0; i < honest.size(); ++i)
            senders.add(honest[i], 100.0 + 10.0 * static_cast<double>(i));
        const CenteredClipResult result = senders.aggregate();
        const double r = spreadOf(honest);
        const double error =
            distanceBetween(result.values, weightedMean(senders.vectors, senders.weights)) / r;
        const double medianError =
            distanceBetween(sortedMedian(senders.vectors), weightedMean(senders.vectors, senders.weights)) /
            r;
        qInfo("honest senders only: %.4f·r from their weighted mean (median %.3f·r), tau %.3f·r, %d clipped",
              error, medianError, result.tau / r, result.clipped);
        QVERIFY2(error < 0.01, qPrintable(QString::number(error)));
    }

    void singleInputReturnsItself() {
        const Vector vector = honestVectors(1, 777, 8).front();
        for (const double weight : {0.0, 1.0, 4096.0}) {
            for (const double tau : {0.0, 1e-3, 1e6}) {
                Senders senders;
                senders.add(vector, weight);
                CenteredClipOptions options;
                options.tau = tau;
                const CenteredClipResult result = senders.aggregate(options);
                QVERIFY(bitIdentical(result.values, vector));
                QCOMPARE(result.clipped, 0);
            }
        }
    }

    void zeroWeightSenderHasNoInfluence() {
        const std::vector<Vector> honest = honestVectors(5, 4096, 9);
        Senders without;
        for (std::size_t i = 0; i < honest.size(); ++i)
            without.add(honest[i], 10.0 + static_cast<double>(i));
        Senders with = without;
        // Far away and sent by two of seven: with any weight it would move the median and τ.
        with.add(scaled(honest[0], -1000.0f), 0.0);
        with.add(scaled(honest[1], 1000.0f), 0.0);
        const CenteredClipResult reference = without.aggregate();
        const CenteredClipResult result = with.aggregate();
        QVERIFY(bitIdentical(result.values, reference.values));
        QCOMPARE(result.tau, reference.tau);
        QCOMPARE(result.clipped, reference.clipped);
        // The same pair with weight counts.
        with.weights[5] = with.weights[6] = 1.0;
        QVERIFY(!bitIdentical(with.aggregate().values, reference.values));
    }

    void heavierSenderPullsHarder() {
        const std::vector<Vector> vectors = honestVectors(3, 4096, 10);
        Senders even;
        Senders heavy;
        for (std::size_t i = 0; i < vectors.size(); ++i) {
            even.add(vectors[i], 1.0);
            heavy.add(vectors[i], i == 0 ? 5.0 : 1.0);
        }
        const double evenDistance = distanceBetween(even.aggregate().values, vectors[0]);
        const double heavyDistance = distanceBetween(heavy.aggregate().values, vectors[0]);
        QVERIFY2(heavyDistance < 0.75 * evenDistance,
                 qPrintable(QStringLiteral("%1 vs %2").arg(heavyDistance).arg(evenDistance)));
    }

    void zeroIterationsOrZeroWeightGiveTheMedian() {
        for (const int senderCount : {3, 4, 7, 8}) {
            const std::vector<Vector> vectors = honestVectors(senderCount, 513, 11 + senderCount);
            const std::vector<double> median = sortedMedian(vectors);
            Senders weighted;
            Senders weightless;
            for (const Vector& vector : vectors) {
                weighted.add(vector, 2.0);
                weightless.add(vector, 0.0);
            }
            CenteredClipOptions medianOnly;
            medianOnly.maxIterations = 0;
            for (const CenteredClipResult& result :
                 {weighted.aggregate(medianOnly), weightless.aggregate()}) {
                QCOMPARE(result.iterations, 0);
                for (std::size_t j = 0; j < median.size(); ++j)
                    QCOMPARE(result.values[j], static_cast<float>(median[j]));
            }
        }
    }

    void automaticTauIsTheMedianDistanceTimesTheFactor() {
        // Three senders on a line: the median is the middle one, the distances 0, 1 and 3.
        Senders senders;
        senders.add({0.0f, 0.0f}, 1.0);
        senders.add({1.0f, 0.0f}, 1.0);
        senders.add({4.0f, 0.0f}, 1.0);
        CenteredClipOptions options;
        options.tauFactor = 2.5;
        const CenteredClipResult result = senders.aggregate(options);
        QCOMPARE(result.tau, 2.5);
        // v = 1 + (−1 + 0 + 2.5·3/3)/3 = 1.5 after one step; then 4 is 2.5 away, unclipped, and the mean 5/3
        // is the fixed point.
        QVERIFY(std::abs(result.values[0] - 5.0f / 3.0f) < 1e-6);
        QCOMPARE(result.values[1], 0.0f);
        QCOMPARE(result.clipped, 0);
        // A radius of 1 clips the far sender for good: (−v + (1 − v) + (4 − v)/|4 − v|) = 0 at v = 1.
        options.tau = 1.0;
        const CenteredClipResult clipped = senders.aggregate(options);
        QCOMPARE(clipped.tau, 1.0);
        QCOMPARE(clipped.clipped, 1);
        QVERIFY(std::abs(clipped.values[0] - 1.0f) < 1e-5);
    }

    void invalidOptionsAreNamed() {
        CenteredClip::validate(CenteredClipOptions{});
        const auto errorFor = [](auto change) {
            CenteredClipOptions options;
            change(options);
            const QString validateError = errorOf([&] { CenteredClip::validate(options); });
            const float value = 1.0f;
            const QString aggregateError =
                errorOf([&] { CenteredClip::aggregate({&value}, {1.0}, 1, options); });
            if (validateError != aggregateError)
                return QStringLiteral("validate and aggregate disagree: ") + validateError;
            return validateError;
        };
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        QVERIFY(errorFor([](auto& o) { o.tau = -1.0; }).contains("tau is -1"));
        QVERIFY(errorFor([&](auto& o) { o.tau = nan; }).contains("tau is nan"));
        QVERIFY(errorFor([&](auto& o) { o.tau = inf; }).contains("tau is inf"));
        QVERIFY(errorFor([](auto& o) { o.tauFactor = 0.0; }).contains("tauFactor is 0"));
        QVERIFY(errorFor([](auto& o) { o.tauFactor = -2.0; }).contains("tauFactor is -2"));
        QVERIFY(errorFor([&](auto& o) { o.tauFactor = nan; }).contains("tauFactor is nan"));
        QVERIFY(errorFor([](auto& o) { o.maxIterations = -1; }).contains("maxIterations is -1"));
        QVERIFY(errorFor([](auto& o) { o.maxIterations = 1001; }).contains("maxIterations is 1001"));
        QVERIFY(errorFor([](auto& o) { o.tolerance = -1e-30; }).contains("tolerance is -1e-30"));
        QVERIFY(errorFor([&](auto& o) { o.tolerance = inf; }).contains("tolerance is inf"));
        QVERIFY(errorFor([](auto& o) { o.maxIterations = 1000; }).isEmpty());
    }

    void badInputsAreNamed() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float inf = std::numeric_limits<float>::infinity();
        const Vector good{1.0f, 2.0f, 3.0f, 4.0f};
        const auto errorFor = [](const std::vector<const float*>& inputs, const std::vector<double>& weights,
                                 std::size_t count) {
            return errorOf([&] { CenteredClip::aggregate(inputs, weights, count, {}); });
        };
        Vector withNan = good;
        withNan[3] = nan;
        QVERIFY(errorFor({good.data(), withNan.data()}, {1.0, 1.0}, 4).contains("sender 1 value 3 is nan"));
        Vector withInf = good;
        withInf[2] = -inf;
        QVERIFY(errorFor({withInf.data(), good.data()}, {1.0, 1.0}, 4).contains("sender 0 value 2 is -inf"));
        // Non-finite values are refused whatever the sender's weight.
        QVERIFY(errorFor({good.data(), withNan.data()}, {1.0, 0.0}, 4).contains("sender 1 value 3"));
        QVERIFY(errorFor({good.data(), good.data()}, {1.0, -1.0}, 4).contains("sender 1 has weight -1"));
        QVERIFY(errorFor({good.data()}, {std::numeric_limits<double>::quiet_NaN()}, 4)
                    .contains("sender 0 has weight nan"));
        QVERIFY(errorFor({good.data()}, {std::numeric_limits<double>::infinity()}, 4)
                    .contains("sender 0 has weight inf"));
        QVERIFY(errorFor({good.data(), good.data()}, {1e308, 1e308}, 4).contains("weights sum to inf"));
        QVERIFY(errorFor({good.data(), good.data()}, {1.0}, 4).contains("2 senders but 1 weights"));
        QVERIFY(errorFor({}, {}, 4).contains("no senders"));
        QVERIFY(errorFor({good.data(), nullptr}, {1.0, 1.0}, 4).contains("sender 1 has no values"));
        // Nothing to aggregate is no error.
        QVERIFY(errorFor({nullptr}, {1.0}, 0).isEmpty());
        QVERIFY(CenteredClip::aggregate({nullptr}, {1.0}, 0, {}).values.empty());
    }

    void deterministic() {
        Senders senders;
        const std::vector<Vector> honest = honestVectors(6, 8192, 12);
        for (const Vector& vector : honest)
            senders.add(vector, 3.0);
        senders.add(scaled(honest[2], -1000.0f), 3.0);
        senders.add(randomDirection(8192, 1e5, 13), 3.0);
        const CenteredClipResult first = senders.aggregate();
        const CenteredClipResult second = senders.aggregate();
        QVERIFY(bitIdentical(first.values, second.values));
        QCOMPARE(first.iterations, second.iterations);
        QCOMPARE(first.tau, second.tau);
        QCOMPARE(first.clipped, second.clipped);
    }

    void fullPartIsFast() {
        // One part of a span (262144 values) from eight senders, every one of the 20 iterations run.
        constexpr std::size_t kCount = 262144;
        Senders senders;
        const std::vector<Vector> honest = honestVectors(6, kCount, 14);
        for (const Vector& vector : honest)
            senders.add(vector, 1.0);
        senders.add(scaled(honest[0], -1000.0f), 1.0);
        senders.add(randomDirection(kCount, 1000.0 * norm(honest[0]), 15), 1.0);
        CenteredClipOptions options;
        options.tolerance = 0.0;
        QElapsedTimer timer;
        timer.start();
        const CenteredClipResult result = senders.aggregate(options);
        const qint64 elapsed = timer.elapsed();
        qInfo("8 senders x %zu values x %d iterations: %lld ms", kCount, result.iterations, elapsed);
        QCOMPARE(result.iterations, 20);
        QCOMPARE(result.values.size(), kCount);
    }
};

QTEST_GUILESS_MAIN(TestCenteredClip)
#include "tst_centered_clip.moc"
