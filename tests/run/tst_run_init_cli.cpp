// `sahaj-node run-init`: the manifest it writes, and the mistakes a user can make; `sahaj-node
// sign-directory`: a run directory that verifies with the key it prints, and entries it refuses.
#include "core/run/RunDirectory.h"
#include "core/run/RunManifest.h"
#include "core/text/CorpusReader.h"
#include "tests/common/NodeProcess.h"
#include "tests/common/TestFiles.h"

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

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
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
        tokenizer_ = sahaj::test::sampleTokenizerPath();
    }

    void writesAManifestThatLoads() {
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
        // The long link, then the short way: the join file it wrote, on a web server.
        const QString joinPath = QFileInfo(out).absoluteDir().filePath("run.join");
        const qsizetype link = run.out.indexOf("join link: sahaj:join/");
        QVERIFY2(link >= 0, qPrintable(run.out));
        const qsizetype hint = run.out.indexOf("put " + joinPath + " on any web server");
        QVERIFY2(hint > link, qPrintable(run.out));
        QVERIFY2(run.out.indexOf("https:// address", hint) > hint, qPrintable(run.out));

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
        expectUsageError({"--out", out, "--corpus", corpus_, "--weight", "1", "--weight", "2"},
                         "--weight: give one per --corpus (1), got 2");
        expectUsageError({"--out", out, "--corpus", corpus_, "--weight", "heavy"},
                         "--weight must be a number");
        QVERIFY(!QFile::exists(out));
    }

    void weightsMixTheCorpora() {
        const QString other = dir_.filePath("other.txt");
        QFile::copy(corpus_, other);
        QFile file(other);
        QVERIFY(file.open(QIODevice::Append));
        file.write("\n\nএকটি আলাদা অনুচ্ছেদ।\n");
        file.close();
        const QString out = dir_.filePath("weighted.json");
        const NodeRun run = runNode({"run-init", "--out", out, "--tokenizer", tokenizer_, "--corpus", corpus_,
                                     "--corpus", other, "--weight", "0.23", "--weight", "0.77"});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const RunManifest manifest = RunManifest::loadFile(out);
        QCOMPARE(manifest.data.size(), 2u);
        QCOMPARE(manifest.data[0].weight, 0.23);
        QCOMPARE(manifest.data[1].weight, 0.77);
    }

    // With the shards' web places given, the join file's suggested address is beside them.
    void theJoinFilesAddressFollowsTheUrlPrefix() {
        const QString out = dir_.filePath("prefixed.json");
        const NodeRun run = runNode({"run-init", "--out", out, "--tokenizer", tokenizer_, "--corpus", corpus_,
                                     "--url-prefix", "https://data.example.org/run"});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("https://data.example.org/run/prefixed.join"), qPrintable(run.out));
    }

    // sahaj-node shard cuts a corpus into compressed JSONL shards of whole documents, and run-init --data
    // takes its data.json: the run's shards, their URLs under the prefix, their weight.
    void shardSplitsACorpusForRunInit() {
        const QString out = dir_.filePath("sharded");
        const NodeRun split = runNode({"shard", "--corpus", corpus_, "--shard-mb", "0.01", "--out", out,
                                       "--compress", "zstd", "--url-prefix", "https://data.example.org/bn",
                                       "--weight", "0.77", "--documents", "lines", "--name", "wiki"});
        QVERIFY2(split.status == 0, qPrintable(split.err + split.out));
        const QStringList files = QDir(out).entryList({"wiki-*.jsonl.zst"}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 3, qPrintable(files.join(' ')));
        QCOMPARE(files.front(), QString("wiki-00000.jsonl.zst"));
        // Every line of the corpus, in order, is a document of some shard.
        QStringList lines;
        for (const QString& line : QString::fromUtf8(readAll(corpus_)).split('\n'))
            if (!line.trimmed().isEmpty())
                lines << line.trimmed();
        QStringList read;
        for (const QString& file : files) {
            sahaj::text::CorpusReader reader(QDir(out).filePath(file));
            while (std::optional<QString> document = reader.next())
                read << *document;
        }
        QCOMPARE(read, lines);

        const QString manifestPath = dir_.filePath("sharded.json");
        const NodeRun init = runNode({"run-init", "--out", manifestPath, "--tokenizer", tokenizer_, "--data",
                                      QDir(out).filePath("data.json")});
        QVERIFY2(init.status == 0, qPrintable(init.err));
        const RunManifest manifest = RunManifest::loadFile(manifestPath);
        QCOMPARE(manifest.data.size(), std::size_t(files.size()));
        QCOMPARE(manifest.data[0].urls, QStringList{"https://data.example.org/bn/wiki-00000.jsonl.zst"});
        QCOMPARE(manifest.data[0].weight, 0.77);
        QCOMPARE(manifest.data[0].sha256, fileSha256(QDir(out).filePath(files.front())));

        for (const auto& [arguments, expected] :
             {std::pair{QStringList{"--corpus", corpus_, "--out", out, "--compress", "lzma"},
                        QStringLiteral("--compress must be none, gzip or zstd")},
              std::pair{QStringList{"--out", out}, QStringLiteral("give at least one --corpus")}}) {
            const NodeRun refused = runNode(QStringList{"shard"} + arguments);
            QCOMPARE(refused.status, 2);
            QVERIFY2(refused.err.contains(expected), qPrintable(refused.err));
        }
        sahaj::test::writeFile(
            dir_, "bad-data.json",
            R"({"format":"sahaj-data/1","data":[{"urls":["x"],"sha256":"ab","bytes":1}]})");
        const NodeRun bad = runNode({"run-init", "--out", dir_.filePath("bad.json"), "--tokenizer",
                                     tokenizer_, "--data", dir_.filePath("bad-data.json")});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains("--data: ") && bad.err.contains("data[0].urls[0] must be"),
                 qPrintable(bad.err));
    }

    void repeatedShardIsAUsageError() {
        expectUsageError({"--out", dir_.filePath("twice.json"), "--tokenizer", tokenizer_, "--corpus",
                          corpus_, "--corpus", corpus_},
                         "data URL #1 repeats data URL #0");
    }

    void signDirectorySignsWhatVerifies() {
        const QString runs = dir_.filePath("runs.json");
        const auto writeRuns = [&](const QString& join) {
            QFile file(runs);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QStringLiteral(R"({"runs": [{"title": "sahajBERT", "description": "Bengali ALBERT",
                "organiser": "Neuropark", "organiserKey": "%1", "join": "%2", "parameters": 18000000,
                "downloadBytes": 1500000000}]})")
                           .arg(QString(64, QLatin1Char('c')), join)
                           .toUtf8());
        };
        writeRuns(QStringLiteral("https://example.org/sahajbert.join"));
        const QString out = dir_.filePath("directory.json");
        const NodeRun run =
            runNode({"sign-directory", "--runs", runs, "--out", out, "--key", dir_.filePath("keeper")});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const QRegularExpressionMatch key =
            QRegularExpression("directory key: ([0-9a-f]{64})").match(run.out);
        QVERIFY2(key.hasMatch(), qPrintable(run.out));
        const sahaj::run::RunDirectory directory =
            sahaj::run::RunDirectory::fromBytes(readAll(out), out, key.captured(1));
        QCOMPARE(directory.runs().at(0).title, QStringLiteral("sahajBERT"));

        const QByteArray signedBytes = readAll(out);
        writeRuns(QStringLiteral("/etc/passwd"));
        const NodeRun refused =
            runNode({"sign-directory", "--runs", runs, "--out", out, "--key", dir_.filePath("keeper")});
        QCOMPARE(refused.status, 1);
        QVERIFY2(refused.err.contains("runs[0] \"join\" must be a join link"), qPrintable(refused.err));
        QCOMPARE(readAll(out), signedBytes); // the published directory is left as it was
    }

    void runtimeFailuresExitWithOne() {
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
