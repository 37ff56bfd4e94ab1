// Masked-LM evaluation: the JSONL format (round trip, each rejection naming its line), the evaluator's
// set-wide means (independent of the batch size, equal to one pass over the whole set), and examples
// drawn from raw text (deterministic, one pass at most).
#include "core/eval/MaskedLmCorpusSample.h"
#include "core/eval/MaskedLmEvaluator.h"
#include "core/eval/MaskedLmJsonl.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/PreTrainingLoss.h"
#include "core/model/BatchTensors.h"
#include "core/text/Tokenizer.h"
#include "tests/common/TestFiles.h"
#include "tests/tokenizer/TinyTokenizerJson.h"

#include <torch/torch.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace sahaj;
using eval::MaskedLmRecord;
using test::errorOf;

namespace {

model::AlbertConfig tinyConfig() {
    model::AlbertConfig config = model::AlbertConfig::named("tiny");
    config.vocabSize = 40;
    return config;
}

// Records of different lengths, one with padding of its own, one without any scored position.
std::vector<MaskedLmRecord> sampleRecords() {
    std::vector<MaskedLmRecord> records;
    torch::manual_seed(5);
    for (int r = 0; r < 7; ++r) {
        const int length = 5 + r;
        MaskedLmRecord record;
        for (int i = 0; i < length; ++i) {
            record.inputIds.push_back(torch::randint(5, 40, {1}).item<std::int64_t>());
            record.tokenTypeIds.push_back(i < length / 2 ? 0 : 1);
            record.attentionMask.push_back(r == 3 && i >= length - 2 ? 0 : 1);
            const bool scored = r != 5 && i % 3 == 1 && record.attentionMask.back() == 1;
            record.labels.push_back(scored ? torch::randint(5, 40, {1}).item<std::int64_t>() : -100);
        }
        record.sentenceOrderLabel = r % 2;
        records.push_back(record);
    }
    return records;
}

} // namespace

class TestMaskedLm : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return sahaj::test::writeFile(dir_, name, content);
    }

private Q_SLOTS:
    void jsonlRoundTrip() {
        const std::vector<MaskedLmRecord> records = sampleRecords();
        const QString path = dir_.filePath("round.jsonl");
        eval::MaskedLmJsonl::write(path, records);
        const std::vector<MaskedLmRecord> read = eval::MaskedLmJsonl::read(path);
        QCOMPARE(read.size(), records.size());
        for (std::size_t i = 0; i < read.size(); ++i) {
            QCOMPARE(read[i].inputIds, records[i].inputIds);
            QCOMPARE(read[i].tokenTypeIds, records[i].tokenTypeIds);
            QCOMPARE(read[i].attentionMask, records[i].attentionMask);
            QCOMPARE(read[i].labels, records[i].labels);
            QCOMPARE(read[i].sentenceOrderLabel, records[i].sentenceOrderLabel);
            QCOMPARE(read[i].line, std::int64_t(i + 1));
        }
    }

    void jsonlRejectionsNameTheLine() {
        const QByteArray good = R"({"input_ids":[2,7,3],"token_type_ids":[0,0,0],"attention_mask":[1,1,1],)"
                                R"("labels":[-100,7,-100],"sentence_order_label":0})";
        const QList<QPair<QByteArray, QString>> cases{
            {"{not json", "not JSON"},
            {"[1,2]", "not a JSON object"},
            {R"({"token_type_ids":[0],"attention_mask":[1],"labels":[-100],"sentence_order_label":0})",
             "missing \"input_ids\""},
            {R"({"input_ids":[2,7],"token_type_ids":[0],"attention_mask":[1,1],"labels":[-100,7],)"
             R"("sentence_order_label":0})",
             "same length"},
            {R"({"input_ids":[2,7.5],"token_type_ids":[0,0],"attention_mask":[1,1],"labels":[-100,7],)"
             R"("sentence_order_label":0})",
             "must be an integer"},
            {R"({"input_ids":[2,7],"token_type_ids":[0,0],"attention_mask":[1,2],"labels":[-100,7],)"
             R"("sentence_order_label":0})",
             "attention_mask"},
            {R"({"input_ids":[2,7],"token_type_ids":[0,0],"attention_mask":[1,1],"labels":[-5,7],)"
             R"("sentence_order_label":0})",
             "labels must be"},
            {R"({"input_ids":[2,7],"token_type_ids":[0,0],"attention_mask":[1,0],"labels":[-100,7],)"
             R"("sentence_order_label":0})",
             "padded position"},
            {R"({"input_ids":[2,7],"token_type_ids":[0,0],"attention_mask":[1,1],"labels":[-100,7],)"
             R"("sentence_order_label":2})",
             "sentence_order_label must be 0 or 1"},
            {R"({"input_ids":[],"token_type_ids":[],"attention_mask":[],"labels":[],"sentence_order_label":0})",
             "is empty"},
        };
        for (const auto& [line, problem] : cases) {
            const QString path = write("bad.jsonl", good + "\n\n" + line + "\n" + good + "\n");
            const QString message = errorOf([&] { eval::MaskedLmJsonl::read(path); });
            QVERIFY2(message.startsWith(path + ":3: "), qPrintable(message));
            QVERIFY2(message.contains(problem), qPrintable(message));
        }
        const QString empty = write("empty.jsonl", "\n \n");
        QVERIFY(errorOf([&] { eval::MaskedLmJsonl::read(empty); }).contains("no examples"));
        QVERIFY(errorOf([&] {
                    eval::MaskedLmJsonl::read(dir_.filePath("absent.jsonl"));
                }).contains("cannot open"));
    }

    void evaluatorMeansOverTheWholeSet() {
        torch::manual_seed(11);
        model::AlbertForPreTraining model(tinyConfig());
        const std::vector<MaskedLmRecord> records = sampleRecords();

        // Reference: one padded batch of everything, Hugging Face's loss definitions.
        const model::BatchTensors all =
            model::BatchTensors::of(eval::MaskedLmEvaluator::collate(records, 0, records.size(), 0), torch::kCPU);
        model->eval();
        model::PreTrainingLossValues reference;
        {
            torch::NoGradGuard noGrad;
            const auto output = model->forward(all.inputIds, all.attentionMask, all.tokenTypeIds);
            reference = model::PreTrainingLoss::compute(output, all.mlmLabels, all.sopLabels);
        }
        model->train();
        for (const std::int64_t batch : {std::int64_t(1), std::int64_t(3), std::int64_t(100)}) {
            const eval::MaskedLmScores scores = eval::MaskedLmEvaluator::evaluate(model, records, batch);
            QCOMPARE(scores.examples, std::int64_t(records.size()));
            QCOMPARE(scores.mlmCount, reference.mlmCount);
            QCOMPARE(scores.mlmCorrect, reference.mlmCorrect);
            QCOMPARE(scores.sopCorrect, reference.sopCorrect);
            QVERIFY(std::abs(*scores.mlmLoss() - reference.mlmLoss.item<double>()) < 1e-5);
            QVERIFY(std::abs(scores.sopLoss() - reference.sopLoss.item<double>()) < 1e-5);
            QVERIFY(model->is_training()); // the caller's mode is restored
        }
        const QJsonObject json = eval::MaskedLmEvaluator::evaluate(model, records, 4).toJson();
        for (const char* key : {"mlm_loss", "sop_loss", "mlm_accuracy", "sop_accuracy", "examples"})
            QVERIFY2(json.contains(key), key);

        // Nothing scored: the MLM mean does not exist and is null, not 0.
        std::vector<MaskedLmRecord> unscored{records[5]};
        const eval::MaskedLmScores none = eval::MaskedLmEvaluator::evaluate(model, unscored, 1);
        QVERIFY(!none.mlmLoss());
        QVERIFY(none.toJson().value("mlm_loss").isNull());
    }

    void recordsTheModelCannotTakeAreNamed() {
        std::vector<MaskedLmRecord> records = sampleRecords();
        records[2].line = 9;
        records[2].inputIds[1] = 40;
        QVERIFY(errorOf([&] {
                    eval::MaskedLmEvaluator::checkRecords(records, tinyConfig());
                }).startsWith("line 9: token id 40 outside"));
        records = sampleRecords();
        records[1].line = 4;
        records[1].tokenTypeIds[0] = 2;
        QVERIFY(errorOf([&] {
                    eval::MaskedLmEvaluator::checkRecords(records, tinyConfig());
                }).startsWith("line 4: token type 2"));
        records = sampleRecords();
        records[0].line = 1;
        records[0].inputIds.resize(200, 5);
        records[0].tokenTypeIds.resize(200, 0);
        records[0].attentionMask.resize(200, 1);
        records[0].labels.resize(200, -100);
        QVERIFY(errorOf([&] {
                    eval::MaskedLmEvaluator::checkRecords(records, tinyConfig());
                }).contains("longer than the model's 128 positions"));
    }

    void corpusSampleIsDeterministicAndStopsAtTheEndOfThePass() {
        const text::Tokenizer tokenizer = text::Tokenizer::fromJson(
            text::testing::toBytes(text::testing::tinyTokenizer()), "tiny tokenizer");
        QByteArray corpus;
        for (int i = 0; i < 40; ++i)
            corpus += "ab c abc. a bc ab! c x ab abc ab\n";
        const QString path = write("corpus.txt", corpus);
        const auto sample = [&](std::uint64_t seed, std::int64_t count) {
            return eval::MaskedLmCorpusSample::build(path, tokenizer, 16, seed, count,
                                                     text::PlainTextDocuments::LinePerDocument);
        };
        const auto a = sample(3, 25);
        const auto b = sample(3, 25);
        const auto c = sample(4, 25);
        QCOMPARE(a.size(), std::size_t(25));
        bool differs = false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].inputIds, b[i].inputIds);
            QCOMPARE(a[i].labels, b[i].labels);
            differs = differs || a[i].labels != c[i].labels || a[i].inputIds != c[i].inputIds;
            QVERIFY(std::count_if(a[i].labels.begin(), a[i].labels.end(), [](auto l) { return l != -100; }) >=
                    1);
        }
        QVERIFY(differs);
        // Far more asked for than one pass holds: the sample ends with the pass, without repeats.
        const auto whole = sample(3, 100000);
        QVERIFY(whole.size() > 25 && whole.size() < 1000);
        QCOMPARE(sample(3, 100000).size(), whole.size());
    }
};

QTEST_GUILESS_MAIN(TestMaskedLm)
#include "tst_masked_lm.moc"
