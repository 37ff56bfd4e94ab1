// `sahaj-node tokenizer-train`: success and the errors a user can make.
#include "tests/common/NodeProcess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using Run = sahaj::test::NodeRun;
using sahaj::test::runNode;

class TestTokenizerTrainCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString corpus_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(qEnvironmentVariable("SAHAJ_NODE")),
                 "SAHAJ_NODE must name the sahaj-node executable");
        corpus_ = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/data/corpus/bn-train.txt";
        QVERIFY(QFile::exists(corpus_));
    }

    void trainsAndWritesTokenizerJson() {
        const QString out = dir_.filePath("tok");
        const Run run = runNode({"tokenizer-train", "--corpus", corpus_, "--vocab", "600", "--out", out,
                                 "--seed", "3", "--max-lines", "300", "--threads", "2"});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("600 pieces on 300 documents"), qPrintable(run.out));
        QFile file(out + "/tokenizer.json");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(json["model"].toObject()["vocab"].toArray().size(), 600);
    }

    void missingCorpusIsARuntimeError() {
        const Run run = runNode({"tokenizer-train", "--corpus", dir_.filePath("none.txt"), "--vocab", "600",
                                 "--out", dir_.filePath("x")});
        QCOMPARE(run.status, 1);
        QVERIFY2(run.err.contains("does not exist"), qPrintable(run.err));
        QVERIFY(!QFile::exists(dir_.filePath("x/tokenizer.json")));
    }

    void vocabularyTheCorpusCannotFillIsARuntimeError() {
        const Run large = runNode(
            {"tokenizer-train", "--corpus", corpus_, "--vocab", "50000", "--out", dir_.filePath("l")});
        QCOMPARE(large.status, 1);
        QVERIFY2(large.err.contains("too large for this corpus"), qPrintable(large.err));
        const Run small =
            runNode({"tokenizer-train", "--corpus", corpus_, "--vocab", "30", "--out", dir_.filePath("s")});
        QCOMPARE(small.status, 1);
        QVERIFY2(small.err.contains("too small"), qPrintable(small.err));
    }

    void invocationMistakesAreUsageErrors() {
        const Run noCorpus = runNode({"tokenizer-train", "--vocab", "600", "--out", dir_.filePath("u")});
        QCOMPARE(noCorpus.status, 2);
        QVERIFY2(noCorpus.err.contains("--corpus"), qPrintable(noCorpus.err));
        const Run noVocab = runNode({"tokenizer-train", "--corpus", corpus_, "--out", dir_.filePath("u")});
        QCOMPARE(noVocab.status, 2);
        QVERIFY2(noVocab.err.contains("--vocab"), qPrintable(noVocab.err));
        const Run badVocab =
            runNode({"tokenizer-train", "--corpus", corpus_, "--vocab", "3", "--out", dir_.filePath("u")});
        QCOMPARE(badVocab.status, 2);
        QVERIFY2(badVocab.err.contains("--vocab must be an integer"), qPrintable(badVocab.err));
    }
};

QTEST_GUILESS_MAIN(TestTokenizerTrainCli)
#include "tst_tokenizer_train_cli.moc"
