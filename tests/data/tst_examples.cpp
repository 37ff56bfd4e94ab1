// MLM + SOP examples: packing and A/B split, masking, and batch collation.
#include "core/text/BatchCollator.h"
#include "core/text/MlmMasker.h"
#include "core/text/PortableRandom.h"
#include "core/text/PretrainingExampleBuilder.h"


#include <QTest>

#include <algorithm>
#include <numeric>

using namespace sahaj::text;

namespace {

constexpr int kPad = 0, kUnk = 1, kCls = 2, kSep = 3, kMask = 4;
constexpr int kVocab = 100;

// A document of `count` sentences; sentence s has `length` tokens with distinct ids from 10 upwards.
std::vector<std::vector<int>> document(int count, int length) {
    std::vector<std::vector<int>> sentences;
    int next = 10;
    for (int s = 0; s < count; ++s) {
        std::vector<int> sentence;
        for (int t = 0; t < length; ++t)
            sentence.push_back(next++);
        sentences.push_back(sentence);
    }
    return sentences;
}

// A and B of an example (without specials), checking the [CLS] A [SEP] B [SEP] layout on the way.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> parts(const PretrainingExample& e) {
    const auto& ids = e.inputIds;
    const auto firstSep = std::find(ids.begin() + 1, ids.end(), kSep) - ids.begin();
    std::vector<std::int64_t> a(ids.begin() + 1, ids.begin() + firstSep);
    std::vector<std::int64_t> b(ids.begin() + firstSep + 1, ids.end() - 1);
    return {a, b};
}

} // namespace

class TestExamples : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void examplesHaveTheAlbertLayout() {
        const PretrainingExampleBuilder builder(32, kCls, kSep);
        PortableRandom random(1);
        const auto examples = builder.build(document(6, 7), random);
        QVERIFY(!examples.empty());
        for (const auto& e : examples) {
            QVERIFY(e.inputIds.size() <= 32);
            QCOMPARE(e.inputIds.front(), std::int64_t(kCls));
            QCOMPARE(e.inputIds.back(), std::int64_t(kSep));
            QCOMPARE(std::count(e.inputIds.begin(), e.inputIds.end(), kSep), 2);
            const auto [a, b] = parts(e);
            QVERIFY(!a.empty() && !b.empty());
            // Token types: 0 up to and including the first [SEP], then 1.
            QCOMPARE(e.tokenTypeIds.size(), e.inputIds.size());
            for (std::size_t i = 0; i < e.tokenTypeIds.size(); ++i)
                QCOMPARE(e.tokenTypeIds[i], std::int64_t(i <= a.size() + 1 ? 0 : 1));
            // SOP label: 0 when A's tokens come before B's in the document, 1 when swapped.
            QCOMPARE(e.sopLabel, std::int64_t(a.front() < b.front() ? 0 : 1));
            QVERIFY(e.mlmLabels.empty());
        }
    }

    void packingKeepsEveryTokenInOrderOfChunks() {
        // 6 sentences of 7 tokens, 29 content tokens per example: 4 sentences fit, then 2.
        const PretrainingExampleBuilder builder(32, kCls, kSep);
        PortableRandom random(3);
        const auto examples = builder.build(document(6, 7), random);
        QCOMPARE(examples.size(), std::size_t(2));
        std::vector<std::int64_t> all;
        for (const auto& e : examples) {
            auto [a, b] = parts(e);
            if (e.sopLabel == 1)
                std::swap(a, b);
            all.insert(all.end(), a.begin(), a.end());
            all.insert(all.end(), b.begin(), b.end());
        }
        std::vector<std::int64_t> expected(42);
        std::iota(expected.begin(), expected.end(), 10);
        QCOMPARE(all, expected);
        // The A/B cut is at a sentence boundary: A holds whole sentences.
        for (const auto& e : examples) {
            const auto [a, b] = parts(e);
            QCOMPARE(a.size() % 7, std::size_t(0));
        }
    }

    void longSentencesAreCutNotDropped() {
        const PretrainingExampleBuilder builder(16, kCls, kSep);
        PortableRandom random(5);
        const auto examples = builder.build(document(1, 40), random); // 40 tokens, 13 per example
        std::size_t tokens = 0;
        for (const auto& e : examples) {
            QVERIFY(e.inputIds.size() <= 16);
            tokens += e.inputIds.size() - 3;
        }
        QCOMPARE(tokens, std::size_t(40));
    }

    void oneSentenceSplitsAtAWordStart() {
        // Only ids 13 and 16 start words: the cut must be before one of them.
        std::vector<bool> wordStart(kVocab, false);
        wordStart[13] = wordStart[16] = true;
        const PretrainingExampleBuilder builder(64, kCls, kSep, wordStart);
        for (std::uint64_t seed = 0; seed < 20; ++seed) {
            PortableRandom random(seed);
            const auto examples = builder.build(document(1, 9), random);
            QCOMPARE(examples.size(), std::size_t(1));
            auto [a, b] = parts(examples.front());
            if (examples.front().sopLabel == 1)
                std::swap(a, b);
            QVERIFY(b.front() == 13 || b.front() == 16);
        }
        // A single token cannot be split: no example.
        PortableRandom random(1);
        QVERIFY(builder.build(document(1, 1), random).empty());
        QVERIFY(builder.build({}, random).empty());
    }

    void swapsAboutHalfTheTime() {
        const PretrainingExampleBuilder builder(64, kCls, kSep);
        int swapped = 0;
        const int trials = 2000;
        for (int seed = 0; seed < trials; ++seed) {
            PortableRandom random(static_cast<std::uint64_t>(seed));
            swapped += static_cast<int>(builder.build(document(2, 5), random).front().sopLabel);
        }
        // Binomial(2000, 0.5): mean 1000, sd 22; these seeds are fixed, the bound is 5 sd.
        QVERIFY2(std::abs(swapped - trials / 2) < 110, qPrintable(QString::number(swapped)));
    }

    void shortSequenceProbabilityMakesShorterChunks() {
        const PretrainingExampleBuilder full(128, kCls, kSep, {}, 0.0);
        const PretrainingExampleBuilder shorter(128, kCls, kSep, {}, 1.0);
        PortableRandom r1(9), r2(9);
        QVERIFY(shorter.build(document(50, 5), r2).size() > full.build(document(50, 5), r1).size());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PretrainingExampleBuilder(4, kCls, kSep));
    }

    void maskerSelectsFifteenPercentOfOrdinaryTokens() {
        const MlmMasker masker(kVocab, kMask, {kPad, kUnk, kCls, kSep, kMask});
        const PretrainingExampleBuilder builder(128, kCls, kSep);
        std::int64_t masked = 0, randomised = 0, kept = 0;
        for (std::uint64_t seed = 0; seed < 400; ++seed) {
            PortableRandom random(seed);
            auto examples = builder.build(document(4, 10), random); // 40 content tokens -> 6 selected
            QCOMPARE(examples.size(), std::size_t(1));
            PretrainingExample e = examples.front();
            const auto original = e.inputIds;
            masker.mask(e, random);
            QCOMPARE(e.mlmLabels.size(), e.inputIds.size());
            int selected = 0;
            for (std::size_t i = 0; i < e.inputIds.size(); ++i) {
                const bool special = original[i] == kCls || original[i] == kSep;
                if (e.mlmLabels[i] == kIgnoreLabel) {
                    QCOMPARE(e.inputIds[i], original[i]); // untouched
                    continue;
                }
                QVERIFY(!special);
                QCOMPARE(e.mlmLabels[i], original[i]);
                ++selected;
                if (e.inputIds[i] == kMask)
                    ++masked;
                else if (e.inputIds[i] == original[i])
                    ++kept;
                else {
                    ++randomised;
                    QVERIFY(e.inputIds[i] > kMask && e.inputIds[i] < kVocab); // an ordinary token
                }
            }
            QCOMPARE(selected, 6); // round(0.15 * 40)
        }
        const double total = static_cast<double>(masked + randomised + kept);
        // 2400 selections: the shares are 0.8 / 0.1 / 0.1 within a few standard deviations.
        QVERIFY2(std::abs(masked / total - 0.8) < 0.05, qPrintable(QString::number(masked / total)));
        QVERIFY2(std::abs(randomised / total - 0.1) < 0.04, qPrintable(QString::number(randomised / total)));
        QVERIFY2(std::abs(kept / total - 0.1) < 0.04, qPrintable(QString::number(kept / total)));
    }

    void maskerSelectsAtLeastOneAndRejectsBadSettings() {
        const MlmMasker masker(kVocab, kMask, {kPad, kUnk, kCls, kSep, kMask});
        PretrainingExample e{{kCls, 50, kSep, 51, kSep}, {0, 0, 0, 1, 1}, {}, 0};
        PortableRandom random(4);
        masker.mask(e, random);
        QCOMPARE(
            std::count_if(e.mlmLabels.begin(), e.mlmLabels.end(), [](auto l) { return l != kIgnoreLabel; }),
            1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MlmMasker(kVocab, kMask, {}, 1.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MlmMasker(kVocab, kVocab, {}));
    }

    void collatorPadsAndMasks() {
        const std::vector<PretrainingExample> examples = {
            {{kCls, 20, kSep, 21, kSep}, {0, 0, 0, 1, 1}, {-100, 20, -100, -100, -100}, 1},
            {{kCls, 30, 31, kSep, 32, 33, kSep}, {0, 0, 0, 0, 1, 1, 1}, {}, 0},
        };
        const BatchCollator longest(kPad);
        const sahaj::compute::TokenBatch batch = longest.collate(examples);
        QCOMPARE(batch.rows, 2);
        QCOMPARE(batch.width, 7);
        using Row = std::vector<std::int64_t>;
        const auto row = [&](const Row& field, std::int64_t r) {
            return Row(field.begin() + batch.index(r, 0), field.begin() + batch.index(r, batch.width));
        };
        QCOMPARE(row(batch.inputIds, 0), Row({kCls, 20, kSep, 21, kSep, kPad, kPad}));
        QCOMPARE(row(batch.attentionMask, 0), Row({1, 1, 1, 1, 1, 0, 0}));
        QCOMPARE(row(batch.tokenTypeIds, 1), Row({0, 0, 0, 0, 1, 1, 1}));
        QCOMPARE(row(batch.mlmLabels, 0), Row({-100, 20, -100, -100, -100, -100, -100}));
        QCOMPARE(row(batch.mlmLabels, 1), Row(7, -100));
        QCOMPARE(batch.sopLabels, Row({1, 0}));
        QCOMPARE(batch.tokens(), 12);
        QCOMPARE(batch.maskedTokens(), 1);
        // A micro-batch of the first row alone needs only its own 5 columns.
        const sahaj::compute::TokenBatch first = batch.slice(0, 1);
        QCOMPARE(first.width, 5);
        QCOMPARE(first.inputIds, Row({kCls, 20, kSep, 21, kSep}));
        QCOMPARE(first.sopLabels, Row({1}));
        QCOMPARE(batch.slice(0, 2), batch);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, batch.slice(1, 3));

        const BatchCollator fixed(kPad, PaddingMode::SequenceLength, 10);
        QCOMPARE(fixed.collate(examples).width, 10);
        const BatchCollator tooShort(kPad, PaddingMode::SequenceLength, 6);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tooShort.collate(examples));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, longest.collate({}));
    }

    void portableRandomIsReproducible() {
        PortableRandom a(42), b(42);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(a.below(1000), b.below(1000));
        QVERIFY(PortableRandom::deriveSeed(1, {2, 3}) != PortableRandom::deriveSeed(1, {3, 2}));
        QCOMPARE(PortableRandom::deriveSeed(1, {2, 3}), PortableRandom::deriveSeed(1, {2, 3}));
        PortableRandom c(1);
        for (int i = 0; i < 1000; ++i) {
            const double u = c.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
            const auto v = c.between(-3, 3);
            QVERIFY(v >= -3 && v <= 3);
        }
    }
};

QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
