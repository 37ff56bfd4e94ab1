// Fine-tuning pieces: how words and texts become model inputs (first sub-token labels, truncation that
// keeps [SEP] and every gold tag), the report's statistics and baselines, and the run's early stopping
// and reproducibility.
#include "core/eval/FinetuneEncoder.h"
#include "core/eval/FinetuneReport.h"
#include "core/eval/FinetuneRun.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/ModelCheckpoint.h"
#include "core/text/Tokenizer.h"
#include "tests/tokenizer/TinyTokenizerJson.h"

#include <torch/torch.h>

#include <QtTest>

using namespace sahaj;
using namespace sahaj::eval;

namespace {

text::Tokenizer tinyTokenizer() {
    return text::Tokenizer::fromJson(text::testing::toBytes(text::testing::tinyTokenizer()),
                                     "tiny tokenizer");
}

std::vector<std::int64_t> ids(const std::vector<int>& pieces) {
    return {pieces.begin(), pieces.end()};
}

FinetuneFeatures classFeatures(std::int64_t label) {
    FinetuneFeatures features;
    features.inputIds = {2, 6, 3};
    features.labels = {label};
    return features;
}

} // namespace

class TestFinetune : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void wordsAreLabelledAtTheirFirstPiece() {
        const text::Tokenizer tokenizer = tinyTokenizer();
        const TaggedSentence sentence{{"abc", "c", "x1"}, {"B-X", "O", "I-X"}, 1};
        const LabelSet labels = LabelSet::forTags({sentence});
        QCOMPARE(labels.names(), QStringList({"O", "B-X", "I-X"}));
        const FinetuneEncoder encoder(tokenizer, labels, 128);
        const FinetuneFeatures f = encoder.encode(sentence);

        // Each word is tokenised alone, so it carries the word-start mark, as is_split_into_words does.
        const std::vector<int> abc = tokenizer.encodeIds("abc");
        const std::vector<int> c = tokenizer.encodeIds("c");
        const std::vector<int> x1 = tokenizer.encodeIds("x1");
        QVERIFY(abc.size() >= 2 && x1.size() >= 2); // so that continuation pieces are exercised
        std::vector<std::int64_t> expectedIds{2};
        std::vector<std::int64_t> expectedLabels{-100};
        std::vector<int> expectedWords;
        for (const auto& [pieces, tag] : {std::pair{abc, 1}, std::pair{c, 0}, std::pair{x1, 2}}) {
            expectedWords.push_back(int(expectedIds.size()));
            for (std::size_t p = 0; p < pieces.size(); ++p) {
                expectedIds.push_back(pieces[p]);
                expectedLabels.push_back(p == 0 ? tag : -100);
            }
        }
        expectedIds.push_back(3);
        expectedLabels.push_back(-100);
        QCOMPARE(f.inputIds, expectedIds);
        QCOMPARE(f.labels, expectedLabels);
        QCOMPARE(f.wordTokens, expectedWords);
        QCOMPARE(f.goldTags, sentence.tags);
    }

    void truncationKeepsSepAndEveryGoldTag() {
        const text::Tokenizer tokenizer = tinyTokenizer();
        const TaggedSentence sentence{{"c", "abc", "c", "c"}, {"O", "B-X", "O", "B-Y"}, 1};
        const LabelSet labels = LabelSet::forTags({sentence});
        const std::size_t abcPieces = tokenizer.encodeIds("abc").size();
        // Room for [CLS], "c", one piece of "abc", [SEP]: "abc" is cut inside, the last words are lost.
        const FinetuneFeatures f = FinetuneEncoder(tokenizer, labels, 4).encode(sentence);
        QCOMPARE(f.inputIds.size(), std::size_t(4));
        QCOMPARE(f.inputIds.back(), std::int64_t(3));
        QCOMPARE(f.wordTokens, (std::vector<int>{1, 2, -1, -1}));
        QCOMPARE(f.goldTags.size(), 4);
        QCOMPARE(f.labels[2], std::int64_t(labels.id("B-X")));
        QVERIFY(abcPieces >= 2);

        const LabelledText text{"abc c abc c abc c", "yes", 1};
        const LabelSet classes = LabelSet::forClasses({text, LabelledText{"c", "no", 2}});
        const FinetuneFeatures t = FinetuneEncoder(tokenizer, classes, 5).encode(text);
        std::vector<std::int64_t> expected{2};
        const std::vector<int> pieces = tokenizer.encodeIds(text.text);
        expected.insert(expected.end(), pieces.begin(), pieces.begin() + 3);
        expected.push_back(3);
        QCOMPARE(t.inputIds, expected);
        QCOMPARE(t.labels, (std::vector<std::int64_t>{classes.id("yes")}));
        QVERIFY(QString::fromStdString([&] {
                    try {
                        FinetuneEncoder(tokenizer, classes, 5).encode(LabelledText{"c", "maybe", 3});
                    } catch (const std::invalid_argument& e) {
                        return std::string(e.what());
                    }
                    return std::string();
                }())
                    .contains("maybe"));
    }

    void meanAndSampleStandardDeviation() {
        const auto m = FinetuneReport::meanStd({0.5, 0.7, 0.9});
        QVERIFY(std::abs(m.mean - 0.7) < 1e-12);
        QVERIFY(std::abs(m.std - 0.2) < 1e-12); // sqrt((0.04 + 0 + 0.04) / 2)
        const auto one = FinetuneReport::meanStd({0.8});
        QCOMPARE(one.mean, 0.8);
        QCOMPARE(one.std, 0.0);
    }

    void baselines() {
        // Train: class 1 three times, class 0 twice; test: 1,1,0,2 -> majority class 1 gets 2 of 4.
        std::vector<FinetuneFeatures> train{classFeatures(1), classFeatures(0), classFeatures(1),
                                            classFeatures(0), classFeatures(1)};
        std::vector<FinetuneFeatures> test{classFeatures(1), classFeatures(1), classFeatures(0),
                                           classFeatures(2)};
        QCOMPARE(FinetuneReport::baseline(FinetuneTask::Classify, train, test).metric, 0.5);
        // A tie goes to the lowest id: 0 and 1 twice each -> class 0, right once in four.
        train.pop_back();
        QCOMPARE(FinetuneReport::baseline(FinetuneTask::Classify, train, test).metric, 0.25);

        FinetuneFeatures sentence;
        sentence.goldTags = {"B-X", "I-X", "O", "B-Y"};
        const TaskScores none = FinetuneReport::baseline(FinetuneTask::Ner, {}, {sentence});
        QCOMPARE(none.metric, 0.0);
        QCOMPARE(none.figures.value("gold_entities").toInt(), 2);
        QCOMPARE(none.figures.value("token_accuracy").toDouble(), 0.25);
    }

    void earlyStoppingAndReproducibility() {
        const text::Tokenizer tokenizer = tinyTokenizer();
        model::AlbertConfig config = model::AlbertConfig::named("tiny");
        config.vocabSize = 20;
        torch::manual_seed(1);
        model::AlbertForPreTraining pretrained(config);
        model::SafeTensors::Tensors tensors =
            model::ModelCheckpoint::tensorsOf(pretrained, model::StoragePrecision::Float32);

        std::vector<LabelledText> data;
        for (int i = 0; i < 12; ++i)
            data.push_back({i % 2 ? "ab x c" : "ab c c", i % 2 ? "x" : "plain", i + 1});
        const LabelSet labels = LabelSet::forClasses(data);
        const std::vector<FinetuneFeatures> features = FinetuneEncoder(tokenizer, labels, 16).encodeAll(data);

        FinetuneOptions options;
        options.task = FinetuneTask::Classify;
        options.learningRate = 1e-3;
        options.batchSize = 4;
        options.microBatchSize = 3; // accumulation over uneven micro-batches
        options.maxEpochs = 6;
        options.patience = 1;
        options.threshold = 0.99; // no epoch can gain that much: stop after the second
        const auto train = [&](std::uint64_t seed) {
            FinetuneRun run(options, config, tensors, labels, seed, c10::kCPU);
            return run.train(features, features, features);
        };
        const FinetuneRunResult a = train(1);
        QCOMPARE(a.history.size(), std::size_t(2));
        QVERIFY(a.stoppedEarly);
        QVERIFY(a.bestEpoch == 1 || a.bestEpoch == 2);
        QVERIFY(a.history.front().best);

        const FinetuneRunResult b = train(1);
        const FinetuneRunResult c = train(2);
        QCOMPARE(b.history.front().trainLoss, a.history.front().trainLoss);
        QCOMPARE(b.history.back().trainLoss, a.history.back().trainLoss);
        QVERIFY(c.history.front().trainLoss != a.history.front().trainLoss);

        // Without early stopping every epoch runs and the loss falls on this separable task.
        options.patience = 100;
        options.threshold = 0.0;
        const FinetuneRunResult full = train(1);
        QCOMPARE(full.history.size(), std::size_t(6));
        QVERIFY(!full.stoppedEarly);
        QVERIFY(full.history.back().trainLoss < full.history.front().trainLoss);
    }
};

QTEST_GUILESS_MAIN(TestFinetune)
#include "tst_finetune.moc"
