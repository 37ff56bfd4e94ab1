// The pretraining stream over a real Bengali corpus with the tests' sample tokenizer: layout, endless
// passes, determinism and exact resumption.
#include "core/text/PretrainingStream.h"
#include "core/text/Tokenizer.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <optional>

using namespace sahaj::text;

namespace {

constexpr int kSequenceLength = 48;
constexpr int kBatchSize = 16;

using sahaj::compute::TokenBatch;

bool sameBatch(const TokenBatch& a, const TokenBatch& b) {
    return a == b;
}

QString thrownMessage(const std::function<void()>& action) {
    try {
        action();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestPretrainingStream : public QObject {
    Q_OBJECT

private:
    std::optional<Tokenizer> tokenizer_;
    QString corpus_;
    QTemporaryDir dir_;

    PretrainingStreamOptions options() const {
        PretrainingStreamOptions o;
        o.shuffleBufferSize = 64; // smaller than the corpus, so the buffer really shuffles
        return o;
    }

    PretrainingStream stream(std::uint64_t seed, StreamPosition start = {}) const {
        return PretrainingStream(corpus_, *tokenizer_, kSequenceLength, kBatchSize, seed, options(), start);
    }

private Q_SLOTS:
    void initTestCase() {
        tokenizer_ = Tokenizer::fromFile(sahaj::test::sampleTokenizerPath());
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/data/corpus/bn-train.txt";
        QVERIFY2(QFile::exists(corpus_), qPrintable(corpus_));
    }

    void batchesHaveTheExpectedLayout() {
        PretrainingStream s = stream(1);
        for (int i = 0; i < 5; ++i) {
            const TokenBatch b = s.next();
            QCOMPARE(b.rows, kBatchSize);
            QVERIFY(b.width <= kSequenceLength);
            const auto cells = static_cast<std::size_t>(b.rows * b.width);
            for (const auto* field : {&b.inputIds, &b.attentionMask, &b.tokenTypeIds, &b.mlmLabels})
                QCOMPARE(field->size(), cells);
            QCOMPARE(b.sopLabels.size(), std::size_t(kBatchSize));
            for (std::int64_t r = 0; r < b.rows; ++r) {
                QCOMPARE(b.inputIds[b.index(r, 0)], std::int64_t(tokenizer_->clsId()));
                int predicted = 0; // every sequence has something to predict, and labels are real token ids
                for (std::int64_t c = 0; c < b.width; ++c) {
                    const auto i = static_cast<std::size_t>(b.index(r, c));
                    if (b.attentionMask[i] == 0) {
                        QCOMPARE(b.inputIds[i], std::int64_t(tokenizer_->padId()));
                        QCOMPARE(b.mlmLabels[i], std::int64_t(-100));
                        QCOMPARE(b.tokenTypeIds[i], std::int64_t(0));
                    }
                    if (b.mlmLabels[i] != -100) {
                        ++predicted;
                        QVERIFY(b.mlmLabels[i] > 4 && b.mlmLabels[i] < tokenizer_->vocabSize());
                    }
                }
                QVERIFY(predicted >= 1);
                QVERIFY(b.sopLabels[static_cast<std::size_t>(r)] == 0 ||
                        b.sopLabels[static_cast<std::size_t>(r)] == 1);
            }
        }
        QCOMPARE(s.position().batch, std::uint64_t(5));
    }

    void fixedPaddingGivesFullWidth() {
        PretrainingStreamOptions o = options();
        o.padding = PaddingMode::SequenceLength;
        PretrainingStream s(corpus_, *tokenizer_, kSequenceLength, kBatchSize, 1, o);
        QCOMPARE(s.next().width, kSequenceLength);
    }

    void sameSeedSameBatchesOtherSeedOtherBatches() {
        PretrainingStream a = stream(11), b = stream(11), c = stream(12);
        bool allSameAsOtherSeed = true;
        for (int i = 0; i < 10; ++i) {
            const TokenBatch x = a.next();
            QVERIFY(sameBatch(x, b.next()));
            const TokenBatch y = c.next();
            allSameAsOtherSeed = allSameAsOtherSeed && sameBatch(x, y);
        }
        QVERIFY(!allSameAsOtherSeed);
    }

    void streamIsEndlessAndReshufflesEachPass() {
        // One example per batch; record the lengths of the first examples of each pass. A document's
        // length does not depend on the pass, so equal sequences would mean an unshuffled order.
        PretrainingStream s(corpus_, *tokenizer_, kSequenceLength, 1, 3, options());
        std::vector<std::vector<std::size_t>> lengths(3);
        for (int i = 0; i < 2000 && s.position().pass < 3; ++i) {
            const std::uint64_t pass = s.position().pass;
            const auto examples = s.nextExamples();
            if (lengths[pass].size() < 40)
                lengths[pass].push_back(examples.front().inputIds.size());
        }
        QCOMPARE(s.position().pass, std::uint64_t(3));
        QCOMPARE(lengths[1].size(), std::size_t(40));
        QVERIFY(lengths[0] != lengths[1]);
        QVERIFY(lengths[1] != lengths[2]);
    }

    void resumesExactlyFromASavedPosition() {
        // Resume points inside the first pass and after a pass boundary.
        for (const int stopAfter : {7, 40}) {
            PretrainingStream uninterrupted = stream(5);
            for (int i = 0; i < stopAfter; ++i)
                uninterrupted.next();
            const QJsonObject saved = uninterrupted.position().toJson();
            PretrainingStream resumed = stream(5, StreamPosition::fromJson(saved));
            QCOMPARE(resumed.position(), uninterrupted.position());
            for (int i = 0; i < 12; ++i)
                QVERIFY2(sameBatch(uninterrupted.next(), resumed.next()),
                         qPrintable(QString("batch %1 after resuming at %2").arg(i).arg(stopAfter)));
            QCOMPARE(resumed.position(), uninterrupted.position());
        }
    }

    void skipBatchesMatchesAnUninterruptedStream() {
        PretrainingStream uninterrupted = stream(9);
        for (int i = 0; i < 30; ++i)
            uninterrupted.next();
        PretrainingStream skipped = stream(9);
        skipped.skipBatches(30);
        QCOMPARE(skipped.position(), uninterrupted.position());
        for (int i = 0; i < 8; ++i)
            QVERIFY(sameBatch(uninterrupted.next(), skipped.next()));
    }

    void positionBeyondTheCorpusIsAClearError() {
        const QString message = thrownMessage([&] { stream(1, StreamPosition{0, 0, 100000, 0}); });
        QVERIFY2(message.contains("beyond corpus"), qPrintable(message));
        const QString example = thrownMessage([&] { stream(1, StreamPosition{0, 0, 3, 50}); });
        QVERIFY2(example.contains("example 50"), qPrintable(example));
    }

    void jsonlCorpusAndUnusableCorpus() {
        const QString jsonl = dir_.filePath("docs.jsonl");
        QFile file(jsonl);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"text\": \"আমি বাংলায় গান গাই। তুমি কি শুনবে?\"}\n{\"text\": \"আমাদের দেশ সুন্দর।\"}\n");
        file.close();
        PretrainingStream s(jsonl, *tokenizer_, kSequenceLength, 4, 1, options());
        QCOMPARE(s.next().rows, 4); // two documents, cycled

        const QString empty = dir_.filePath("empty.txt");
        QFile emptyFile(empty);
        QVERIFY(emptyFile.open(QIODevice::WriteOnly));
        emptyFile.write("\n\n");
        emptyFile.close();
        PretrainingStream e(empty, *tokenizer_, kSequenceLength, 4, 1, options());
        const QString message = thrownMessage([&] { e.next(); });
        QVERIFY2(message.contains("no training examples"), qPrintable(message));

        QVERIFY(
            thrownMessage([&] { PretrainingStream(corpus_, *tokenizer_, 4, 4, 1); }).contains("at least 5"));
        QVERIFY(
            thrownMessage([&] { PretrainingStream(corpus_, *tokenizer_, 64, 0, 1); }).contains("batch size"));
    }
};

QTEST_GUILESS_MAIN(TestPretrainingStream)
#include "tst_pretraining_stream.moc"
