// sahaj-node eval, fill-mask and finetune as a user runs them, on checkpoints that train-local wrote:
// eval scores the very batch the trainer reported a loss on and finds the same loss; examples built
// from raw text are reproducible; fine-tuning on small tasks built from the demo corpus beats the trivial
// baseline by a wide margin and saves models in Hugging Face layout.
#include "core/eval/MaskedLmJsonl.h"
#include "core/model/ClassificationCheckpoint.h"
#include "core/model/ModelCheckpoint.h"
#include "core/text/PretrainingStream.h"
#include "core/text/Tokenizer.h"
#include "core/train/LocalTrainer.h"
#include "core/train/TrainingCheckpoint.h"
#include "tests/common/NodeProcess.h"
#include "tests/common/TestFiles.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace sahaj;
using sahaj::test::NodeRun;

namespace {

NodeRun runNode(const QStringList& arguments) {
    return sahaj::test::runNode(arguments, {}, 240000);
}

QJsonObject lastJsonLine(const QString& out) {
    const QStringList lines = out.trimmed().split('\n');
    return QJsonDocument::fromJson(lines.back().toUtf8()).object();
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

bool close(double a, double b, double relative = 1e-5) {
    return std::abs(a - b) <= relative * std::max(1.0, std::abs(b));
}

} // namespace

class TestEvalCli : public QObject {
    Q_OBJECT

    QTemporaryDir work_;
    QString source_;
    QString tokenizer_;
    QString pretrained_; // a train-local output folder with a tiny model, made by initTestCase

    QString path(const QString& name) const { return work_.filePath(name); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(test::nodeExecutable()), "SAHAJ_NODE not set");
        source_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR");
        tokenizer_ = test::sampleTokenizerPath();
        QVERIFY(work_.isValid());
        // A short real pre-training run: the checkpoint every command below starts from.
        pretrained_ = path("pretrained");
        const NodeRun r = runNode(
            {"train-local", "--config", "tiny",    "--corpus",  source_ + "/tests/data/corpus/bn-train.txt",
             "--tokenizer", tokenizer_, "--steps", "30",        "--batch",
             "16",          "--seq",    "64",      "--lr",      "0.01",
             "--warmup",    "5",        "--out",   pretrained_, "--log-every",
             "10"});
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
    }

    void evalEqualsTheTrainersLossOnTheSameBatch() {
        // The trainer reports a step's loss from the weights before that step. Train one step, keep that
        // checkpoint, train the second step, then score the second step's batch with the kept weights.
        // The config has no classifier dropout, so the trainer's sentence-order loss is deterministic too.
        train::LocalTrainerOptions o;
        o.config.classifierDropoutProb = 0.0;
        o.corpusPath = (source_ + "/tests/data/corpus/bn-train.txt").toStdString();
        o.tokenizerPath = tokenizer_.toStdString();
        o.outputDir = path("trainer").toStdString();
        o.steps = 1;
        o.batchSize = 8;
        o.sequenceLength = 64;
        o.seed = 3;
        o.warmupSteps = 0;
        o.scheduleSteps = 4;
        o.lamb.learningRate = 0.01;
        const std::atomic<bool> never{false};
        train::LocalTrainer(o).run(never);
        const std::filesystem::path kept = path("trainer-step1").toStdString();
        std::filesystem::copy(o.outputDir, kept, std::filesystem::copy_options::recursive);
        o.resume = true;
        o.steps = 2;
        train::LocalTrainer(o).run(never);

        // The second batch, from the data position the step-1 checkpoint saved.
        const train::TrainingCheckpointInfo info = train::TrainingCheckpoint::readInfo(kept);
        const text::Tokenizer tokenizer = text::Tokenizer::fromFile(tokenizer_);
        text::PretrainingStream stream(QString::fromStdString(o.corpusPath.string()), tokenizer, 64, 8, 3, {},
                                       info.dataPosition);
        std::vector<eval::MaskedLmRecord> records;
        for (const text::PretrainingExample& example : stream.nextExamples())
            records.push_back(eval::MaskedLmJsonl::fromExample(example));
        eval::MaskedLmJsonl::write(path("batch2.jsonl"), records);

        QFile log(path("trainer/log.jsonl"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = log.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const QJsonObject step2 = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(step2.value("step").toInt(), 2);

        const NodeRun r = runNode({"eval", "--checkpoint", QString::fromStdString(kept.string()), "--data",
                                   path("batch2.jsonl"), "--batch", "8"});
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        const QJsonObject scores = lastJsonLine(r.out);
        QCOMPARE(scores.value("examples").toInt(), 8);
        for (const char* key : {"mlm_loss", "sop_loss", "mlm_accuracy", "sop_accuracy"})
            QVERIFY2(close(scores.value(key).toDouble(), step2.value(key).toDouble()),
                     qPrintable(QString("%1: eval %2, trainer %3")
                                    .arg(key)
                                    .arg(scores.value(key).toDouble(), 0, 'g', 10)
                                    .arg(step2.value(key).toDouble(), 0, 'g', 10)));
    }

    void examplesFromTextAreReproducible() {
        const QString heldout = source_ + "/tests/data/corpus/bn-heldout.txt";
        const QStringList base{"eval",       "--checkpoint", pretrained_, "--corpus", heldout,
                               "--examples", "60",           "--seq",     "64"};
        const NodeRun a = runNode(QStringList(base) << "--seed"
                                                    << "5"
                                                    << "--write-jsonl" << path("held.jsonl"));
        QVERIFY2(a.status == 0, qPrintable(a.out + a.err));
        const NodeRun b = runNode(QStringList(base) << "--seed"
                                                    << "5");
        const NodeRun c = runNode(QStringList(base) << "--seed"
                                                    << "6");
        QCOMPARE(b.out, a.out);
        QVERIFY(c.out != a.out);
        const QJsonObject scores = lastJsonLine(a.out);
        QCOMPARE(scores.value("examples").toInt(), 60);
        QVERIFY(scores.value("scored_tokens").toInt() >= 60);
        // An untrained tiny model over a 32,000-token vocabulary is near ln(32000) = 10.37; 30 steps
        // move it, but it stays a poor model.
        QVERIFY(scores.value("mlm_loss").toDouble() > 3.0 && scores.value("mlm_loss").toDouble() < 11.0);

        const NodeRun saved = runNode({"eval", "--checkpoint", pretrained_, "--data", path("held.jsonl")});
        QVERIFY2(saved.status == 0, qPrintable(saved.err));
        QVERIFY(close(lastJsonLine(saved.out).value("mlm_loss").toDouble(),
                      scores.value("mlm_loss").toDouble(), 1e-9));
    }

    void aPlainModelFolderIsEnough() {
        // What a collaboration exports: config.json + model.safetensors (here in fp16) and the tokenizer,
        // no optimiser files. Every command takes it as it is and finds the tokenizer beside the model.
        const model::AlbertForPreTraining trained = model::ModelCheckpoint::load(
            train::TrainingCheckpoint::readableDirectory(pretrained_.toStdString()));
        const QString exported = path("exported");
        model::ModelCheckpoint::save(trained, exported.toStdString(), model::StoragePrecision::Float16);
        QVERIFY(QFile::copy(tokenizer_, exported + "/tokenizer.json"));
        const QStringList corpus{
            "--corpus", source_ + "/tests/data/corpus/bn-heldout.txt", "--examples", "20", "--seq", "64"};
        const NodeRun fromFolder = runNode(QStringList{"eval", "--checkpoint", exported} + corpus);
        QVERIFY2(fromFolder.status == 0, qPrintable(fromFolder.out + fromFolder.err));
        const NodeRun fromRun = runNode(QStringList{"eval", "--checkpoint", pretrained_} + corpus);
        // fp16 storage rounds the weights: close to the fp32 run's loss, not equal to it.
        const double a = lastJsonLine(fromFolder.out).value("mlm_loss").toDouble();
        const double b = lastJsonLine(fromRun.out).value("mlm_loss").toDouble();
        QVERIFY2(close(a, b, 1e-2), qPrintable(QString("%1 vs %2").arg(a).arg(b)));
        const NodeRun fill = runNode({"fill-mask", "--checkpoint", exported, "আমি [MASK] গান গাই।"});
        QVERIFY2(fill.status == 0, qPrintable(fill.err));
    }

    void evalRefusesBadInput() {
        QFile bad(path("bad.jsonl"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(
            "{\"input_ids\":[2,3],\"token_type_ids\":[0,0],\"attention_mask\":[1,1],\"labels\":[-100,-100],"
            "\"sentence_order_label\":0}\n{\"input_ids\":[2,3]}\n");
        bad.close();
        NodeRun r = runNode({"eval", "--checkpoint", pretrained_, "--data", path("bad.jsonl")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("bad.jsonl:2: missing \"token_type_ids\""), qPrintable(r.err));

        QFile wide(path("wide.jsonl"));
        QVERIFY(wide.open(QIODevice::WriteOnly));
        wide.write("{\"input_ids\":[2,99999],\"token_type_ids\":[0,0],\"attention_mask\":[1,1],"
                   "\"labels\":[-100,-100],\"sentence_order_label\":0}\n");
        wide.close();
        r = runNode({"eval", "--checkpoint", pretrained_, "--data", path("wide.jsonl")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("wide.jsonl: line 1: token id 99999 outside"), qPrintable(r.err));

        r = runNode({"eval", "--checkpoint", pretrained_});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("either --data"), qPrintable(r.err));
        r = runNode({"eval", "--checkpoint", pretrained_, "--data", path("bad.jsonl"), "--seed", "3"});
        QCOMPARE(r.status, 2);
        r = runNode({"eval", "--checkpoint", path("nowhere"), "--data", path("bad.jsonl")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("no such folder"), qPrintable(r.err));
        r = runNode({"eval", "--checkpoint", work_.path(), "--data", path("bad.jsonl")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("holds no model"), qPrintable(r.err));
    }

    void fillMaskRanksTheVocabulary() {
        NodeRun r = runNode({"fill-mask", "--checkpoint", pretrained_, "--top", "4", "--json",
                             "আমি [MASK] গান গাই।", "[MASK] ফাইল [MASK]"});
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const QJsonObject first = QJsonDocument::fromJson(lines[0].toUtf8()).object();
        QCOMPARE(first.value("text").toString(), QString("আমি [MASK] গান গাই।"));
        QCOMPARE(first.value("masks").toArray().size(), 1);
        QCOMPARE(QJsonDocument::fromJson(lines[1].toUtf8()).object().value("masks").toArray().size(), 2);
        const QJsonArray predictions = first.value("masks")[0].toObject().value("predictions").toArray();
        QCOMPARE(predictions.size(), 4);
        double previous = 1.0, sum = 0.0;
        for (const QJsonValue& p : predictions) {
            const double score = p.toObject().value("score").toDouble();
            QVERIFY(score > 0.0 && score <= previous);
            previous = score;
            sum += score;
            // Only ids with a piece: the tiny model has 32,000 rows, the tests' tokenizer 400 pieces.
            QVERIFY(p.toObject().value("token_id").toInteger() < 400);
            QVERIFY(!p.toObject().value("token").toString().isEmpty());
            QVERIFY(!p.toObject().value("sequence").toString().contains("[MASK]"));
        }
        QVERIFY(sum <= 1.0 + 1e-6);

        r = runNode({"fill-mask", "--checkpoint", pretrained_, "আমি [MASK] গান গাই।"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("[MASK] 1 (token "), qPrintable(r.out));
        r = runNode({"fill-mask", "--checkpoint", pretrained_, "কোনো মুখোশ নেই"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("no [MASK]"), qPrintable(r.err));
        r = runNode({"fill-mask", "--checkpoint", pretrained_});
        QCOMPARE(r.status, 2);
    }

    void finetuningBeatsTheBaseline() {
        // Two small tasks built from the demo corpus sample: "sentence or label?" and Latin/number NER.
        QProcess script;
        script.start("bash", {source_ + "/scripts/demo-tasks.sh", source_ + "/tests/data/corpus/bn-train.txt",
                              source_ + "/tests/data/corpus/bn-heldout.txt", path("tasks")});
        QVERIFY(script.waitForFinished(60000));
        QVERIFY2(script.exitCode() == 0, script.readAllStandardError().constData());
        const auto task = [&](const QString& name, const QString& ext, const QStringList& extra) {
            QStringList arguments{"finetune", "--task",           name,           "--checkpoint", pretrained_,
                                  "--out",    path("ft-" + name), "--max-length", "64",           "--batch",
                                  "16"};
            for (const QString split : {"train", "dev", "test"})
                arguments << "--" + split << path("tasks/" + name + "-" + split + "." + ext);
            return runNode(arguments + extra);
        };

        NodeRun r = task("classify", "jsonl", {"--lr", "1e-3", "--epochs", "10", "--seeds", "1,2"});
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("mean "), qPrintable(r.out));
        QJsonObject results = readJson(path("ft-classify/results.json"));
        QCOMPARE(results.value("runs").toArray().size(), 2);
        double baseline = results.value("baseline_test").toObject().value("accuracy").toDouble();
        double achieved =
            results.value("summary").toObject().value("test_accuracy").toObject().value("mean").toDouble();
        QVERIFY2(std::abs(baseline - 0.5) < 0.05, qPrintable(QString::number(baseline))); // balanced classes
        QVERIFY2(achieved >= baseline + 0.2,
                 qPrintable(QString("accuracy %1, baseline %2").arg(achieved).arg(baseline)));
        QCOMPARE(lastJsonLine(r.out).value("task").toString(), QString("classify"));

        const auto classifier =
            model::ClassificationCheckpoint::load(path("ft-classify/seed-2").toStdString());
        QCOMPARE(classifier.labels, (std::vector<std::string>{"label", "sentence"}));
        QVERIFY(classifier.model->head() == model::ClassificationHead::Sequence);
        QVERIFY(QFile::exists(path("ft-classify/seed-2/tokenizer.json")));

        r = task("ner", "conll", {"--lr", "3e-3", "--epochs", "15", "--patience", "15"});
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        results = readJson(path("ft-ner/results.json"));
        baseline = results.value("baseline_test").toObject().value("f1").toDouble();
        achieved = results.value("summary").toObject().value("test_f1").toObject().value("mean").toDouble();
        QCOMPARE(baseline, 0.0);
        QVERIFY2(achieved >= 0.3, qPrintable(QString("F1 %1").arg(achieved)));
        const auto tagger = model::ClassificationCheckpoint::load(path("ft-ner/seed-1").toStdString());
        QCOMPARE(tagger.labels, (std::vector<std::string>{"O", "B-LAT", "I-LAT", "B-NUM", "I-NUM"}));
        QVERIFY(tagger.model->head() == model::ClassificationHead::Token);
    }

    void finetuneRefusesBadInput() {
        QFile dev(path("dev-unknown.jsonl"));
        QVERIFY(dev.open(QIODevice::WriteOnly));
        dev.write("{\"text\": \"এক\", \"label\": \"sentence\"}\n{\"text\": \"দুই\", \"label\": \"poem\"}\n");
        dev.close();
        const QString train = path("tasks/classify-train.jsonl");
        NodeRun r = runNode({"finetune", "--task", "classify", "--checkpoint", pretrained_, "--train", train,
                             "--dev", path("dev-unknown.jsonl"), "--test", train, "--out", path("ft-bad")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("dev-unknown.jsonl:2: label 'poem'"), qPrintable(r.err));
        r = runNode({"finetune", "--task", "translate", "--checkpoint", pretrained_, "--train", train,
                     "--dev", train, "--test", train, "--out", path("ft-bad")});
        QCOMPARE(r.status, 2);
        r = runNode({"finetune", "--task", "ner", "--checkpoint", pretrained_, "--train", train, "--dev",
                     train, "--test", train, "--out", path("ft-bad"), "--seeds", "1,x"});
        QCOMPARE(r.status, 2);
        r = runNode({"finetune", "--task", "ner", "--checkpoint", pretrained_, "--train", train, "--dev",
                     train, "--test", train, "--out", path("ft-bad"), "--max-length", "4096"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("exceeds the model's 128 positions"), qPrintable(r.err));
        // CoNLL expected, JSON given: the reader names the file and line.
        r = runNode({"finetune", "--task", "ner", "--checkpoint", pretrained_, "--train", train, "--dev",
                     train, "--test", train, "--out", path("ft-bad")});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("classify-train.jsonl:1:"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestEvalCli)
#include "tst_eval_cli.moc"
