// `sahaj-node run-init`: the manifest it writes, and the mistakes a user can make.
#include "core/run/RunManifest.h"
#include "tests/common/NodeProcess.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using sahaj::run::RunManifest;
using sahaj::test::NodeRun;
using sahaj::test::runNode;

namespace {

QString fileSha256(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

// Runs sahaj-node in `directory`: a child process starts in its parent's working directory.
NodeRun runNodeIn(const QString& directory, const QStringList& arguments) {
    const QString previous = QDir::currentPath();
    QDir::setCurrent(directory);
    const NodeRun run = runNode(arguments);
    QDir::setCurrent(previous);
    return run;
}

} // namespace

class TestRunInitCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString corpus_;
    QString tokenizer_;

    void requireTokenizer() const {
        if (!QFile::exists(tokenizer_))
            QSKIP("the shared sahajBERT tokenizer is missing ($SAHAJ_SHARED_DIR/data/sahajbert-tokenizer)");
    }

    // Expects a usage error (exit 2) whose message contains `expected`.
    static void expectUsageError(const QStringList& arguments, const QString& expected) {
        const NodeRun run = runNode(QStringList{"run-init"} + arguments);
        QVERIFY2(run.status == 2, qPrintable(QString("status %1: %2").arg(run.status).arg(run.err)));
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(qEnvironmentVariable("SAHAJ_NODE")),
                 "SAHAJ_NODE must name the sahaj-node executable");
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/data/corpus/bn-train.txt";
        QVERIFY(QFile::exists(corpus_));
        tokenizer_ = qEnvironmentVariable("SAHAJ_SHARED_DIR") + "/data/sahajbert-tokenizer/tokenizer.json";
    }

    void writesAManifestThatLoads() {
        requireTokenizer();
        const QString out = dir_.filePath("run.json");
        const NodeRun run = runNode({"run-init",
                                     "--out",
                                     out,
                                     "--corpus",
                                     corpus_,
                                     "--tokenizer",
                                     tokenizer_,
                                     "--run-id",
                                     "bn-test",
                                     "--config",
                                     "tiny",
                                     "--seq",
                                     "64",
                                     "--coordinator",
                                     "10.0.0.1:4600",
                                     "--coordinator",
                                     "[::1]:4601",
                                     "--target-batch",
                                     "256",
                                     "--wire",
                                     "int8"});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("wrote " + QFileInfo(out).absoluteFilePath()), qPrintable(run.out));
        QVERIFY2(run.out.contains("run_id=bn-test"), qPrintable(run.out));

        const RunManifest manifest = RunManifest::loadFile(out);
        QCOMPARE(manifest.runId, QString("bn-test"));
        QVERIFY(manifest.model == sahaj::model::AlbertConfig::named("tiny"));
        QCOMPARE(manifest.data.size(), 1u);
        QCOMPARE(manifest.data[0].sha256, fileSha256(corpus_));
        QCOMPARE(manifest.data[0].bytes, QFileInfo(corpus_).size());
        QCOMPARE(manifest.data[0].urls.front(),
                 QUrl::fromLocalFile(QFileInfo(corpus_).absoluteFilePath()).toString(QUrl::FullyEncoded));
        QCOMPARE(manifest.tokenizer.path, QFileInfo(tokenizer_).absoluteFilePath());
        QCOMPARE(manifest.tokenizer.sha256, fileSha256(tokenizer_));
        QCOMPARE(manifest.coordinators, QStringList({"10.0.0.1:4600", "[::1]:4601"}));
        QCOMPARE(manifest.training.targetBatchSize, 256);
        QCOMPARE(manifest.training.sequenceLength, 64);
        QCOMPARE(manifest.training.wireDtype, sahaj::run::WireDtype::Int8);
        QCOMPARE(manifest.training.documents, sahaj::text::PlainTextDocuments::BlankLineSeparated);
        QCOMPARE(manifest.training.maxEpochs, manifest.training.totalSteps);

        const QRegularExpressionMatch printed = QRegularExpression("sha256=([0-9a-f]{64})").match(run.out);
        QVERIFY2(printed.hasMatch(), qPrintable(run.out));
        QCOMPARE(printed.captured(1), manifest.sha256Hex());
    }

    void demoDefaultsUseTheDemoCorpus() {
        requireTokenizer();
        QTemporaryDir work;
        QVERIFY(QDir(work.path()).mkpath("build/data/demo-corpus"));
        const QString demo = work.filePath("build/data/demo-corpus/train.txt");
        QVERIFY(QFile::copy(corpus_, demo));
        const NodeRun run =
            runNodeIn(work.path(), {"run-init", "--out", "run.json", "--tokenizer", tokenizer_});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const RunManifest manifest = RunManifest::loadFile(work.filePath("run.json"));
        QCOMPARE(manifest.runId, QString("demo"));
        QVERIFY(manifest.model == sahaj::model::AlbertConfig::named("small"));
        QCOMPARE(manifest.coordinators, QStringList({"127.0.0.1:4600"}));
        QCOMPARE(manifest.training.targetBatchSize, 64);
        QCOMPARE(manifest.training.sequenceLength, 128);
        QCOMPARE(manifest.data.size(), 1u);
        QCOMPARE(manifest.data[0].urls.front(),
                 QUrl::fromLocalFile(QFileInfo(demo).absoluteFilePath()).toString(QUrl::FullyEncoded));
        QCOMPARE(manifest.data[0].sha256, fileSha256(corpus_));
    }

    void missingDemoCorpusPointsToItsScript() {
        QTemporaryDir work;
        const NodeRun run = runNodeIn(work.path(), {"run-init", "--out", "run.json", "--tokenizer", corpus_});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains("scripts/demo-corpus.sh"), qPrintable(run.err));
        QVERIFY(!QFile::exists(work.filePath("run.json")));
    }

    void invocationMistakesAreUsageErrors() {
        const QString out = dir_.filePath("bad.json");
        expectUsageError({"--corpus", corpus_}, "missing required option --out");
        expectUsageError({"--out", out, "--run-id", "Bengali_Run"}, "--run-id must be 1 to 64 characters");
        expectUsageError({"--out", out, "--config", "huge"}, "--config: unknown model config name 'huge'");
        // The tiny model has 128 positions.
        expectUsageError({"--out", out, "--config", "tiny", "--seq", "129"},
                         "--seq must be an integer in [5, 128]");
        expectUsageError({"--out", out, "--target-batch", "0"}, "--target-batch must be an integer");
        expectUsageError({"--out", out, "--wire", "bf16"}, "--wire must be 'fp16' or 'int8', got 'bf16'");
        expectUsageError({"--out", out, "--documents", "pages"},
                         "--documents must be 'lines' or 'paragraphs'");
        expectUsageError({"--out", out, "--coordinator", "localhost"}, "--coordinator must be HOST:PORT");
        expectUsageError({"--out", out, "--total-steps", "1000"}, "must not exceed --total-steps 1000");
        expectUsageError({"--out", out, "--corpus", dir_.filePath("none.txt")}, "--corpus: no such file");
        expectUsageError({"--out", out, "--lr", "0"}, "--lr must be positive");
        QVERIFY(!QFile::exists(out));
    }

    void repeatedShardIsAUsageError() {
        requireTokenizer();
        expectUsageError({"--out", dir_.filePath("twice.json"), "--tokenizer", tokenizer_, "--corpus",
                          corpus_, "--corpus", corpus_},
                         "data URL #1 repeats data URL #0");
    }

    void runtimeFailuresExitWithOne() {
        requireTokenizer();
        // A file that is not a tokenizer: the manifest would be useless to every volunteer.
        const NodeRun badTokenizer = runNode(
            {"run-init", "--out", dir_.filePath("t.json"), "--corpus", corpus_, "--tokenizer", corpus_});
        QCOMPARE(badTokenizer.status, 1);
        QVERIFY2(badTokenizer.err.contains("error:"), qPrintable(badTokenizer.err));
        QVERIFY(!QFile::exists(dir_.filePath("t.json")));
        // A folder that does not exist.
        const NodeRun unwritable = runNode({"run-init", "--out", dir_.filePath("no/such/run.json"),
                                            "--corpus", corpus_, "--tokenizer", tokenizer_});
        QCOMPARE(unwritable.status, 1);
        QVERIFY2(unwritable.err.contains("cannot write run manifest"), qPrintable(unwritable.err));
    }
};

QTEST_GUILESS_MAIN(TestRunInitCli)
#include "tst_run_init_cli.moc"
