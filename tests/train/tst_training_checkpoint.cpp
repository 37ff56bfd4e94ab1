// The training checkpoint (save/load round trip, atomic swap, validation) and the training log.
#include "core/model/AlbertForPreTraining.h"
#include "core/train/Lamb.h"
#include "core/train/ParameterGrouping.h"
#include "core/train/TrainingCheckpoint.h"
#include "core/train/TrainingLog.h"

#include <ATen/ATen.h>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

namespace fs = std::filesystem;
using sahaj::model::AlbertConfig;
using sahaj::model::AlbertForPreTraining;
using sahaj::train::Lamb;
using sahaj::train::ParameterGrouping;
using sahaj::train::TrainingCheckpoint;
using sahaj::train::TrainingCheckpointInfo;

namespace {

TrainingCheckpointInfo sampleInfo(std::int64_t step) {
    TrainingCheckpointInfo info;
    info.step = step;
    info.dataPosition.batch = static_cast<std::uint64_t>(step);
    info.dataPosition.pass = 1;
    info.dataPosition.document = 17;
    info.dataPosition.example = 2;
    info.seed = 18446744073709551557ULL; // beyond 2^53: must survive JSON exactly
    info.configName = "tiny";
    info.batchSize = 4;
    info.microBatchSize = 2;
    info.sequenceLength = 64;
    info.warmupSteps = 5000;
    info.scheduleSteps = 100;
    info.clipNorm = 1.0;
    info.corpus = "/data/corpus.txt";
    info.documents = sahaj::text::PlainTextDocuments::BlankLineSeparated;
    info.tokenizer = "/data/tokenizer.json";
    return info;
}

AlbertForPreTraining tinyModel(std::uint64_t seed) {
    at::manual_seed(seed);
    return AlbertForPreTraining(AlbertConfig::named("tiny"));
}

// One step with made-up gradients, so that the optimiser has a non-trivial state.
void takeStep(AlbertForPreTraining& model, Lamb& lamb) {
    for (auto& parameter : model->parameters())
        parameter.mutable_grad() = at::randn(parameter.sizes());
    lamb.setLearningRate(1e-3);
    lamb.step();
    lamb.zeroGrad();
}

bool sameParameters(AlbertForPreTraining& a, AlbertForPreTraining& b) {
    const auto x = a->named_parameters();
    const auto y = b->named_parameters();
    for (const auto& item : x) {
        if (!at::equal(item.value(), y[item.key()]))
            return false;
    }
    return x.size() == y.size();
}

} // namespace

class TestTrainingCheckpoint : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void infoJsonRoundTrip() {
        const TrainingCheckpointInfo info = sampleInfo(42);
        const TrainingCheckpointInfo back = TrainingCheckpointInfo::fromJson(info.toJson());
        QCOMPARE(back.step, info.step);
        QVERIFY(back.dataPosition == info.dataPosition);
        QCOMPARE(back.seed, info.seed);
        QCOMPARE(back.configName, info.configName);
        QCOMPARE(back.batchSize, info.batchSize);
        QCOMPARE(back.microBatchSize, info.microBatchSize);
        QCOMPARE(back.sequenceLength, info.sequenceLength);
        QCOMPARE(back.lamb.learningRate, info.lamb.learningRate);
        QCOMPARE(back.lamb.clampValue, info.lamb.clampValue);
        QCOMPARE(back.lamb.debias, info.lamb.debias);
        QCOMPARE(back.warmupSteps, info.warmupSteps);
        QCOMPARE(back.scheduleSteps, info.scheduleSteps);
        QCOMPARE(back.clipNorm, info.clipNorm);
        QCOMPARE(back.corpus, info.corpus);
        QVERIFY(back.documents == info.documents);
    }

    void infoJsonRejectsBadFields_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("format") << "format" << QJsonValue("other") << "not a Sahaj training checkpoint";
        QTest::newRow("version") << "format_version" << QJsonValue(99) << "format version 99";
        QTest::newRow("step") << "step" << QJsonValue(-1) << "'step' must be an integer";
        QTest::newRow("fractional step") << "step" << QJsonValue(1.5) << "'step' must be an integer";
        QTest::newRow("seed") << "seed" << QJsonValue("x") << "'seed'";
        QTest::newRow("batch") << "batch_size" << QJsonValue("4") << "'batch_size'";
        QTest::newRow("position") << "data_position" << QJsonValue(3) << "'data_position'";
        QTest::newRow("hyperparameters")
            << "hyperparameters" << QJsonValue(QJsonObject{{"lr", 1.0}}) << "'beta1'";
        QTest::newRow("documents") << "documents" << QJsonValue("chapters") << "'documents'";
        QTest::newRow("missing config")
            << "config_name" << QJsonValue(QJsonValue::Undefined) << "'config_name'";
    }

    void infoJsonRejectsBadFields() {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        QJsonObject json = sampleInfo(1).toJson();
        if (value.isUndefined())
            json.remove(field);
        else
            json[field] = value;
        try {
            TrainingCheckpointInfo::fromJson(json);
            QFAIL("accepted a bad optimizer.json");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void saveAndLoad() {
        QTemporaryDir dir;
        const fs::path out = dir.path().toStdString();
        QVERIFY(!TrainingCheckpoint::exists(out));

        AlbertForPreTraining model = tinyModel(1);
        Lamb lamb(ParameterGrouping::split(*model, 0.01), {});
        takeStep(model, lamb);
        TrainingCheckpoint::save(out, model, lamb, sampleInfo(1));
        QVERIFY(TrainingCheckpoint::exists(out));
        for (const char* file :
             {"config.json", "model.safetensors", "optimizer.safetensors", "optimizer.json"})
            QVERIFY2(fs::exists(out / "checkpoint" / file), file);
        QVERIFY(!fs::exists(out / "checkpoint.tmp"));

        // A second save replaces the first and leaves no side folders.
        takeStep(model, lamb);
        TrainingCheckpoint::save(out, model, lamb, sampleInfo(2));
        QVERIFY(!fs::exists(out / "checkpoint.old"));
        QVERIFY(!fs::exists(out / "checkpoint.tmp"));
        QCOMPARE(TrainingCheckpoint::readInfo(out).step, std::int64_t(2));

        AlbertForPreTraining restored = tinyModel(2);
        QVERIFY(!sameParameters(model, restored));
        Lamb restoredLamb(ParameterGrouping::split(*restored, 0.01), {});
        const TrainingCheckpointInfo info = TrainingCheckpoint::load(out, restored, restoredLamb);
        QCOMPARE(info.step, std::int64_t(2));
        QVERIFY(sameParameters(model, restored));
        const auto expected = lamb.exportState();
        const auto actual = restoredLamb.exportState();
        QCOMPARE(actual.size(), expected.size());
        for (const auto& [name, tensor] : expected)
            QVERIFY2(at::equal(tensor, actual.at(name)), name.c_str());
        // The tie between the decoder and the word embeddings survives loading.
        QVERIFY(restored->stateDict()["predictions.decoder.weight"].data_ptr() ==
                restored->albert->embeddings->wordEmbeddings->weight.data_ptr());
    }

    // A crash between the two renames leaves only checkpoint.old: it is still found and loads.
    void previousCheckpointSurvivesAnInterruptedSwap() {
        QTemporaryDir dir;
        const fs::path out = dir.path().toStdString();
        AlbertForPreTraining model = tinyModel(3);
        Lamb lamb(ParameterGrouping::split(*model, 0.01), {});
        TrainingCheckpoint::save(out, model, lamb, sampleInfo(5));
        fs::rename(out / "checkpoint", out / "checkpoint.old");
        fs::create_directories(out / "checkpoint.tmp"); // a half-written new one
        QVERIFY(TrainingCheckpoint::exists(out));
        QCOMPARE(TrainingCheckpoint::readInfo(out).step, std::int64_t(5));
        AlbertForPreTraining restored = tinyModel(4);
        Lamb restoredLamb(ParameterGrouping::split(*restored, 0.01), {});
        TrainingCheckpoint::load(out, restored, restoredLamb);
        QVERIFY(sameParameters(model, restored));
        // The next save cleans up.
        TrainingCheckpoint::save(out, model, lamb, sampleInfo(6));
        QVERIFY(!fs::exists(out / "checkpoint.old"));
        QVERIFY(!fs::exists(out / "checkpoint.tmp"));
        QCOMPARE(TrainingCheckpoint::readInfo(out).step, std::int64_t(6));
    }

    void loadRejectsMismatches() {
        QTemporaryDir dir;
        const fs::path out = dir.path().toStdString();
        AlbertForPreTraining model = tinyModel(5);
        Lamb lamb(ParameterGrouping::split(*model, 0.01), {});
        TrainingCheckpoint::save(out, model, lamb, sampleInfo(1));

        // Another config: refused before any tensor is touched.
        AlbertConfig other = AlbertConfig::named("tiny");
        other.numHiddenLayers = 3;
        AlbertForPreTraining different(other);
        Lamb differentLamb(ParameterGrouping::split(*different, 0.01), {});
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, TrainingCheckpoint::load(out, different, differentLamb));

        // A truncated optimiser state names the file.
        const fs::path state = out / "checkpoint" / "optimizer.safetensors";
        fs::resize_file(state, fs::file_size(state) / 2);
        AlbertForPreTraining restored = tinyModel(6);
        Lamb restoredLamb(ParameterGrouping::split(*restored, 0.01), {});
        try {
            TrainingCheckpoint::load(out, restored, restoredLamb);
            QFAIL("loaded a truncated optimizer state");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("optimizer.safetensors"), e.what());
        }

        // optimizer.json that is not JSON.
        QFile json(QString::fromStdString((out / "checkpoint" / "optimizer.json").string()));
        QVERIFY(json.open(QIODevice::WriteOnly | QIODevice::Truncate));
        json.write("{not json");
        json.close();
        try {
            TrainingCheckpoint::readInfo(out);
            QFAIL("read a broken optimizer.json");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("optimizer.json"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, TrainingCheckpoint::readInfo(out / "nothing-here"));
    }

    void logKeepsStepsUpToTheCheckpoint() {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "log.jsonl";
        {
            sahaj::train::TrainingLog log(file, std::nullopt);
            for (int step = 1; step <= 5; ++step) {
                sahaj::train::TrainingStepReport report;
                report.step = step;
                report.loss = 10.0 / step + 1e-17 * step;
                log.append(report);
            }
        }
        QFile torn(QString::fromStdString(file.string()));
        QVERIFY(torn.open(QIODevice::Append));
        torn.write("{\"step\": 6, \"lo");
        torn.close();

        {
            sahaj::train::TrainingLog log(file, std::int64_t(3));
            sahaj::train::TrainingStepReport report;
            report.step = 4;
            report.loss = 0.1 + 0.2; // not representable shortly: must still read back exactly
            log.append(report);
        }
        QFile in(QString::fromStdString(file.string()));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QList<QJsonObject> records;
        while (!in.atEnd())
            records.append(QJsonDocument::fromJson(in.readLine()).object());
        QCOMPARE(records.size(), 4);
        QCOMPARE(records[2].value("step").toInteger(), qint64(3));
        QCOMPARE(records[2].value("loss").toDouble(), 10.0 / 3);
        QCOMPARE(records[3].value("step").toInteger(), qint64(4));
        QCOMPARE(records[3].value("loss").toDouble(), 0.1 + 0.2);
    }

    void progressLineIsStable() {
        sahaj::train::TrainingStepReport r;
        r.step = 3;
        r.totalSteps = 6;
        r.loss = 11.25;
        r.mlmLoss = 10.5;
        r.sopLoss = 0.75;
        r.mlmAccuracy = 0.125;
        r.sopAccuracy = 0.5;
        r.learningRate = 1.76e-3;
        r.gradientNorm = 2.0;
        r.samplesPerSecond = 12.345;
        r.tokensPerSecond = 789.01;
        QCOMPARE(
            sahaj::train::TrainingLog::progressLine(r),
            QStringLiteral("step=3/6 loss=11.2500 mlm_loss=10.5000 sop_loss=0.7500 mlm_acc=0.1250 "
                           "sop_acc=0.5000 lr=1.7600e-03 grad_norm=2.0000 samples/s=12.35 tokens/s=789.0"));
    }
};

QTEST_GUILESS_MAIN(TestTrainingCheckpoint)
#include "tst_training_checkpoint.moc"
