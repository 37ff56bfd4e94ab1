// Runs the real `sahaj-node train-local` with the tiny config: a run resumed from a checkpoint must repeat
// the uninterrupted run exactly, checkpoints must load, Ctrl-C must leave a resumable checkpoint, and
// invocation mistakes must fail with a clear message.
#include "core/model/AlbertForPreTraining.h"
#include "core/train/Lamb.h"
#include "core/train/ParameterGrouping.h"
#include "core/train/TrainingCheckpoint.h"
#include "tests/common/NodeProcess.h"
#include "tests/common/TestFiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess> // the interruption test drives its own process
#include <QTemporaryDir>
#include <QtTest>

#include <torch/cuda.h>

namespace {

using Result = sahaj::test::NodeRun;

Result runNode(const QStringList& arguments) {
    return sahaj::test::runNode(arguments, {}, 240000);
}

QList<QJsonObject> readLog(const QString& dir) {
    QFile file(dir + "/log.jsonl");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QJsonObject> records;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (!line.isEmpty())
            records.append(QJsonDocument::fromJson(line).object());
    }
    return records;
}

QByteArray fileHash(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
}

} // namespace

class TestTrainLocal : public QObject {
    Q_OBJECT

private:
    QString tokenizer_;
    QString corpus_;
    QTemporaryDir work_;

    // The common settings: tiny model, seq 64, batch 4 in micro-batches of 2, a short warmup so that the
    // weights really move, and 2 threads so that both runs reduce in the same order.
    QStringList baseArguments(const QString& out) const {
        return {"train-local", "--config", "tiny", "--corpus", corpus_, "--tokenizer",
                tokenizer_,    "--batch",  "4",    "--seq",    "64",    "--micro-batch",
                "2",           "--seed",   "11",   "--warmup", "2",     "--threads",
                "2",           "--out",    out};
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(qEnvironmentVariable("SAHAJ_NODE")), "SAHAJ_NODE not set");
        tokenizer_ = sahaj::test::sampleTokenizerPath();
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
        QVERIFY2(QFile::exists(corpus_), qPrintable(corpus_));
        QVERIFY(work_.isValid());
    }

    void resumeRepeatsTheUninterruptedRun() {
        const QString straight = work_.filePath("straight");
        const QString split = work_.filePath("split");

        Result r = runNode(baseArguments(straight) << "--steps"
                                                   << "6"
                                                   << "--checkpoint-every"
                                                   << "0");
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("step=6/6 loss="), qPrintable(r.out));
        QVERIFY2(r.out.contains("done step=6"), qPrintable(r.out));

        // First half: the schedule still spans 6 steps, so the second half sees the same learning rates.
        r = runNode(baseArguments(split) << "--steps"
                                         << "3"
                                         << "--schedule-steps"
                                         << "6");
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        QCOMPARE(readLog(split).size(), 3);
        // The second half needs no settings but the corpus: they come from the checkpoint.
        r = runNode({"train-local", "--resume", "--out", split, "--corpus", corpus_, "--tokenizer",
                     tokenizer_, "--steps", "6", "--threads", "2"});
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("resumed step=3"), qPrintable(r.out));

        const auto a = readLog(straight);
        const auto b = readLog(split);
        QCOMPARE(a.size(), 6);
        QCOMPARE(b.size(), 6);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(a[i].value("step").toInteger(), qint64(i + 1));
            QCOMPARE(b[i].value("step").toInteger(), qint64(i + 1));
            for (const char* key :
                 {"loss", "mlm_loss", "sop_loss", "mlm_accuracy", "sop_accuracy", "lr", "grad_norm"}) {
                // Exact equality: the resumed run must be bit for bit the same computation.
                const double x = a[i].value(key).toDouble();
                const double y = b[i].value(key).toDouble();
                if (x != y)
                    QFAIL(qPrintable(QStringLiteral("step %1 %2: %3 vs %4")
                                         .arg(i + 1)
                                         .arg(key)
                                         .arg(x, 0, 'g', 17)
                                         .arg(y, 0, 'g', 17)));
            }
            QCOMPARE(a[i].value("samples").toInteger(), qint64(4));
            QVERIFY(a[i].value("masked_tokens").toInteger() > 0);
            QVERIFY(std::isfinite(a[i].value("loss").toDouble()));
        }
        // The schedule: lr 0 on the first update (warmup from 0), the peak after 2 steps, then decay.
        QCOMPARE(a[0].value("lr").toDouble(), 0.0);
        QCOMPARE(a[2].value("lr").toDouble(), 1.76e-3);
        QVERIFY(a[5].value("lr").toDouble() < a[2].value("lr").toDouble());
        // Training happened: the weights moved, so the losses are not all the same.
        QVERIFY(a[5].value("loss").toDouble() != a[2].value("loss").toDouble());

        // The final checkpoints are identical byte for byte.
        for (const char* file : {"model.safetensors", "optimizer.safetensors", "config.json"}) {
            const QByteArray x = fileHash(straight + "/checkpoint/" + file);
            QVERIFY2(!x.isEmpty(), file);
            QCOMPARE(x, fileHash(split + "/checkpoint/" + file));
        }
        QVERIFY(!QFileInfo::exists(straight + "/checkpoint.tmp"));
        QVERIFY(!QFileInfo::exists(straight + "/checkpoint.old"));
    }

    void checkpointLoads() {
        const QString dir = work_.filePath("straight");
        if (!QFileInfo::exists(dir + "/checkpoint/optimizer.json"))
            QSKIP("needs the run of resumeRepeatsTheUninterruptedRun");
        const auto info = sahaj::train::TrainingCheckpoint::readInfo(dir.toStdString());
        QCOMPARE(info.step, qint64(6));
        QCOMPARE(info.configName, std::string("tiny"));
        QCOMPARE(info.seed, quint64(11));
        QCOMPARE(info.batchSize, qint64(4));
        QCOMPARE(info.microBatchSize, qint64(2));
        QCOMPARE(info.sequenceLength, qint64(64));
        QCOMPARE(info.warmupSteps, qint64(2));
        QCOMPARE(info.scheduleSteps, qint64(6));
        QCOMPARE(info.lamb.learningRate, 1.76e-3);
        QVERIFY(info.dataPosition.batch == 6);

        sahaj::model::AlbertForPreTraining model(sahaj::model::AlbertConfig::named("tiny"));
        const auto before = model->albert->embeddings->wordEmbeddings->weight.clone();
        sahaj::train::Lamb lamb(sahaj::train::ParameterGrouping::split(*model, 0.01), {});
        sahaj::train::TrainingCheckpoint::load(dir.toStdString(), model, lamb);
        QVERIFY(!at::equal(before, model->albert->embeddings->wordEmbeddings->weight));
        for (const auto& group : lamb.groups())
            for (const auto& parameter : group.parameters)
                QCOMPARE(lamb.parameterStep(parameter.name), qint64(6));
    }

    void interruptSavesAResumableCheckpoint() {
        const QString dir = work_.filePath("interrupted");
        QProcess process;
        process.setProcessChannelMode(QProcess::SeparateChannels);
        process.start(qEnvironmentVariable("SAHAJ_NODE"), baseArguments(dir) << "--steps"
                                                                             << "100000"
                                                                             << "--checkpoint-every"
                                                                             << "0");
        QVERIFY(process.waitForStarted());
        QByteArray out;
        while (!out.contains("step=2/100000") && process.state() == QProcess::Running) {
            process.waitForReadyRead(1000);
            out += process.readAllStandardOutput();
        }
        QVERIFY2(out.contains("step=2/100000"), out.constData());
        process.terminate(); // SIGTERM: handled like Ctrl-C
        QVERIFY(process.waitForFinished(120000));
        out += process.readAllStandardOutput();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        const QRegularExpressionMatch m =
            QRegularExpression(R"(interrupted step=(\d+))").match(QString::fromUtf8(out));
        QVERIFY2(m.hasMatch(), out.constData());
        const qint64 step = m.captured(1).toLongLong();
        QVERIFY(step >= 2);
        QCOMPARE(sahaj::train::TrainingCheckpoint::readInfo(dir.toStdString()).step, step);
        QCOMPARE(readLog(dir).size(), int(step));

        const Result r = runNode({"train-local", "--resume", "--out", dir, "--corpus", corpus_, "--tokenizer",
                                  tokenizer_, "--steps", QString::number(step + 1)});
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("done step=%1").arg(step + 1)), qPrintable(r.out));
        QCOMPARE(readLog(dir).size(), int(step + 1));
    }

    void mistakesFailClearly_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const QString out = work_.filePath("mistakes");
        const auto base = [&] {
            return baseArguments(out) << "--steps"
                                      << "2";
        };
        QTest::newRow("unknown config") << (base() << "--config"
                                                   << "huge")
                                        << 2 << "unknown model config name 'huge'";
        QTest::newRow("missing steps") << QStringList(baseArguments(out)) << 2 << "--steps";
        QTest::newRow("zero batch") << (base() << "--batch"
                                               << "0")
                                    << 2 << "--batch must be an integer";
        QTest::newRow("micro above batch") << (base() << "--micro-batch"
                                                      << "5")
                                           << 2 << "--micro-batch";
        QTest::newRow("seq too long") << (base() << "--seq"
                                                 << "4096")
                                      << 2 << "--seq";
        QTest::newRow("bad lr") << (base() << "--lr"
                                           << "abc")
                                << 2 << "--lr must be a number";
        QTest::newRow("bad documents") << (base() << "--documents"
                                                  << "chapters")
                                       << 2 << "--documents must be 'lines' or 'paragraphs'";
        QTest::newRow("bad device") << (base() << "--device"
                                               << "tpu")
                                    << 2 << "--device must be cpu or cuda";
        QTest::newRow("missing corpus") << (base() << "--corpus"
                                                   << "/nonexistent/corpus.txt")
                                        << 2 << "no such file";
        QTest::newRow("missing tokenizer") << (base() << "--tokenizer"
                                                      << "/nonexistent/tokenizer.json")
                                           << 2 << "no such file";
        QTest::newRow("schedule before end") << (base() << "--schedule-steps"
                                                        << "1")
                                             << 2 << "schedule ends at step 1";
        QTest::newRow("resume without checkpoint")
            << QStringList{"train-local", "--resume", "--out",   work_.filePath("empty"),
                           "--corpus",    corpus_,    "--steps", "2"}
            << 2 << "no checkpoint";
        if (!torch::cuda::is_available())
            QTest::newRow("cuda absent") << (base() << "--device"
                                                    << "cuda")
                                         << 2 << "no CUDA";
    }

    void mistakesFailClearly() {
        QFETCH(QStringList, arguments);
        QFETCH(int, status);
        QFETCH(QString, message);
        const Result r = runNode(arguments);
        QVERIFY2(r.status == status, qPrintable(QString::number(r.status) + r.out + r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void resumeRefusesADifferentRun() {
        const QString dir = work_.filePath("split");
        if (!QFileInfo::exists(dir + "/checkpoint/optimizer.json"))
            QSKIP("needs the run of resumeRepeatsTheUninterruptedRun");
        const QStringList resume = {"train-local", "--resume",    "--out",    dir,       "--corpus",
                                    corpus_,       "--tokenizer", tokenizer_, "--steps", "6"};
        Result r = runNode(QStringList(resume) << "--seed"
                                               << "12");
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("seed 12 differs from the checkpoint's 11"), qPrintable(r.err));
        r = runNode(QStringList(resume) << "--batch"
                                        << "8");
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("batch size 8 differs"), qPrintable(r.err));
        r = runNode(QStringList(resume) << "--config"
                                        << "small");
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("config 'small' differs"), qPrintable(r.err));
        r = runNode(QStringList(resume) << "--documents"
                                        << "paragraphs");
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("document layout paragraphs differs from the checkpoint's lines"),
                 qPrintable(r.err));
        r = runNode(QStringList(resume) << "--lr"
                                        << "0.002");
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("learning rate"), qPrintable(r.err));
        // Already at step 6: nothing to do, and nothing changes.
        const QByteArray model = fileHash(dir + "/checkpoint/model.safetensors");
        r = runNode(resume);
        QVERIFY2(r.status == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("nothing to do"), qPrintable(r.out));
        QCOMPARE(fileHash(dir + "/checkpoint/model.safetensors"), model);
        // A fresh run does not overwrite an existing checkpoint.
        r = runNode(baseArguments(dir) << "--steps"
                                       << "6");
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("already holds a training checkpoint"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestTrainLocal)
#include "tst_train_local.moc"
