// The pretraining stream over a real Bengali corpus with the sahajBERT tokenizer: layout, endless
// passes, determinism and exact resumption.
#include "core/text/PretrainingStream.h"
#include "core/text/Tokenizer.h"

#include <torch/torch.h>

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

bool sameBatch(const PretrainingBatch& a, const PretrainingBatch& b) {
    return torch::equal(a.inputIds, b.inputIds) && torch::equal(a.attentionMask, b.attentionMask) &&
           torch::equal(a.tokenTypeIds, b.tokenTypeIds) && torch::equal(a.mlmLabels, b.mlmLabels) &&
           torch::equal(a.sopLabels, b.sopLabels);
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
        const QString shared = qEnvironmentVariable("SAHAJ_SHARED_DIR");
        const QString path = shared + "/data/sahajbert-tokenizer/tokenizer.json";
        if (shared.isEmpty() || !QFile::exists(path))
            QSKIP("the sahajBERT tokenizer is not available: "
                  "SAHAJ_SHARED_DIR/data/sahajbert-tokenizer/tokenizer.json "
                  "is missing");
        tokenizer_ = Tokenizer::fromFile(path);
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/data/corpus/bn-train.txt";
        QVERIFY2(QFile::exists(corpus_), qPrintable(corpus_));
    }

    void batchesHaveTheExpectedLayout() {
        PretrainingStream s = stream(1);
        for (int i = 0; i < 5; ++i) {
            const PretrainingBatch b = s.next();
            QCOMPARE(b.inputIds.dim(), 2);
            QCOMPARE(b.inputIds.size(0), kBatchSize);
            QVERIFY(b.inputIds.size(1) <= kSequenceLength);
            QCOMPARE(b.sopLabels.sizes().vec(), std::vector<std::int64_t>({kBatchSize}));
            for (const auto* t : {&b.inputIds, &b.attentionMask, &b.tokenTypeIds, &b.mlmLabels, &b.sopLabels})
                QCOMPARE(t->scalar_type(), torch::kInt64);
            QVERIFY(torch::all(b.inputIds.select(1, 0) == tokenizer_->clsId()).item<bool>());
            const auto padding = b.attentionMask == 0;
            QVERIFY(torch::all(b.inputIds.masked_select(padding) == tokenizer_->padId()).item<bool>());
            QVERIFY(torch::all(b.mlmLabels.masked_select(padding) == -100).item<bool>());
            QVERIFY(torch::all(b.tokenTypeIds.masked_select(padding) == 0).item<bool>());
            // Every sequence has something to predict, and labels are real token ids.
            QVERIFY(torch::all((b.mlmLabels != -100).sum(1) >= 1).item<bool>());
            const auto labels = b.mlmLabels.masked_select(b.mlmLabels != -100);
            QVERIFY(torch::all(labels > 4).item<bool>() &&
                    torch::all(labels < tokenizer_->vocabSize()).item<bool>());
            QVERIFY(torch::all((b.sopLabels == 0) | (b.sopLabels == 1)).item<bool>());
        }
        QCOMPARE(s.position().batch, std::uint64_t(5));
    }

    void fixedPaddingGivesFullWidth() {
        PretrainingStreamOptions o = options();
        o.padding = PaddingMode::SequenceLength;
        PretrainingStream s(corpus_, *tokenizer_, kSequenceLength, kBatchSize, 1, o);
        QCOMPARE(s.next().inputIds.size(1), kSequenceLength);
    }

    void sameSeedSameBatchesOtherSeedOtherBatches() {
        PretrainingStream a = stream(11), b = stream(11), c = stream(12);
        bool allSameAsOtherSeed = true;
        for (int i = 0; i < 10; ++i) {
            const PretrainingBatch x = a.next();
            QVERIFY(sameBatch(x, b.next()));
            const PretrainingBatch y = c.next();
            allSameAsOtherSeed =
                allSameAsOtherSeed && x.inputIds.sizes() == y.inputIds.sizes() && sameBatch(x, y);
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
        QCOMPARE(s.next().inputIds.size(0), 4); // two documents, cycled

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
