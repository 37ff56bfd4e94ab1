// fp32 ⇄ fp16 for the wire: the F16C path and the portable path must give identical bits, or peers
// on different CPUs would end a round with different averages.
#include "core/collab/HalfConversion.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using sahaj::collab::HalfConversion;

namespace {

std::uint32_t bitsOf(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, 4);
    return bits;
}

float floatOf(std::uint32_t bits) {
    float value = 0.0f;
    std::memcpy(&value, &bits, 4);
    return value;
}

} // namespace

class HalfConversionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyHalfDecodesAlike() {
        std::vector<std::uint16_t> halves(65536);
        for (std::uint32_t i = 0; i < halves.size(); ++i)
            halves[i] = static_cast<std::uint16_t>(i);
        std::vector<float> fast(halves.size()), portable(halves.size());
        // An odd count: the tail after the last block of eight takes the portable path inside toFloats.
        HalfConversion::toFloats(halves.data(), 65535, fast.data());
        HalfConversion::toFloatsPortable(halves.data(), 65535, portable.data());
        for (std::size_t i = 0; i < 65535; ++i) {
            if (std::isnan(portable[i])) {
                QVERIFY2(std::isnan(fast[i]), qPrintable(QString("half %1").arg(i, 4, 16)));
                continue;
            }
            QCOMPARE(bitsOf(fast[i]), bitsOf(portable[i]));
        }
        QCOMPARE(portable[0x3c00], 1.0f);
        QCOMPARE(portable[0xc000], -2.0f);
    }

    void encodingMatchesThePortablePathBitForBit() {
        std::vector<float> values;
        // Every value exactly halfway between two neighbouring halves (ties round to even), and its
        // neighbours one float ulp away, over the whole half range including subnormals.
        std::vector<float> decoded(0x7c00);
        std::vector<std::uint16_t> positive(0x7c00);
        for (std::uint32_t i = 0; i < positive.size(); ++i)
            positive[i] = static_cast<std::uint16_t>(i);
        HalfConversion::toFloatsPortable(positive.data(), static_cast<std::int64_t>(positive.size()),
                                         decoded.data());
        for (std::size_t i = 0; i + 1 < decoded.size(); ++i) {
            const float mid = (decoded[i] + decoded[i + 1]) / 2.0f;
            for (const float v : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f), decoded[i]}) {
                values.push_back(v);
                values.push_back(-v);
            }
        }
        // Random floats over every exponent, and the edges: saturation, infinities, zeros, float subnormals.
        std::mt19937 random(7);
        for (int i = 0; i < 200000; ++i)
            values.push_back(floatOf(random() & 0x7f7fffffu) * (i % 2 ? 1.0f : -1.0f));
        for (const float v : {0.0f, -0.0f, 65504.0f, 65519.0f, 65520.0f, 70000.0f, 3.0e38f,
                              std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::denorm_min(), 5.96e-8f, 2.98e-8f, 2.99e-8f}) {
            values.push_back(v);
            values.push_back(-v);
        }
        values.push_back(1.5f); // an odd count: the tail takes the portable path
        std::vector<std::uint16_t> fast(values.size()), portable(values.size());
        HalfConversion::toHalves(values.data(), static_cast<std::int64_t>(values.size()), fast.data());
        HalfConversion::toHalvesPortable(values.data(), static_cast<std::int64_t>(values.size()),
                                         portable.data());
        for (std::size_t i = 0; i < values.size(); ++i)
            QVERIFY2(fast[i] == portable[i], qPrintable(QString("value %1 (bits %2): %3 vs %4")
                                                            .arg(double(values[i]), 0, 'g', 9)
                                                            .arg(bitsOf(values[i]), 8, 16)
                                                            .arg(fast[i], 4, 16)
                                                            .arg(portable[i], 4, 16)));
    }

    void saturatesInsteadOfOverflowing() {
        const std::vector<float> values{1e6f, -1e6f, std::numeric_limits<float>::infinity(), 65504.0f};
        std::vector<std::uint16_t> halves(values.size());
        HalfConversion::toHalves(values.data(), static_cast<std::int64_t>(values.size()), halves.data());
        QCOMPARE(halves[0], std::uint16_t(0x7bff));
        QCOMPARE(halves[1], std::uint16_t(0xfbff));
        QCOMPARE(halves[2], std::uint16_t(0x7bff));
        QCOMPARE(halves[3], std::uint16_t(0x7bff));
    }

    void nanStaysNanOnBothPaths() {
        // Sixteen values: both the eight-wide F16C blocks and the portable path see NaN.
        std::vector<float> values(16, 1.0f);
        values[3] = std::numeric_limits<float>::quiet_NaN();
        values[11] = -std::numeric_limits<float>::quiet_NaN();
        std::vector<std::uint16_t> fast(values.size()), portable(values.size());
        HalfConversion::toHalves(values.data(), 16, fast.data());
        HalfConversion::toHalvesPortable(values.data(), 16, portable.data());
        const auto isNan = [](std::uint16_t half) {
            return (half & 0x7c00) == 0x7c00 && (half & 0x03ff) != 0;
        };
        for (const std::size_t i : {std::size_t(3), std::size_t(11)}) {
            QVERIFY2(isNan(fast[i]), qPrintable(QString::number(fast[i], 16)));
            QVERIFY2(isNan(portable[i]), qPrintable(QString::number(portable[i], 16)));
        }
        QCOMPARE(fast[0], portable[0]);
    }

    void reportsThePath() { qInfo() << "F16C path in use:" << HalfConversion::usesF16c(); }
};

QTEST_APPLESS_MAIN(HalfConversionTest)
#include "tst_half_conversion.moc"
