// `sahaj-node tokenize` as a user runs it: lines on standard input, JSON arrays of ids on standard
// output, clear errors and exit codes for bad input.
#include "TinyTokenizerJson.h"
#include "tests/common/NodeProcess.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::text::testing;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

class TokenizeCommandTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString tinyPath_;

    Run run(const QStringList& arguments, const QByteArray& input) {
        const sahaj::test::NodeRun r =
            sahaj::test::runNode(QStringList{QStringLiteral("tokenize")} + arguments, input, 60000);
        return {r.status, r.out.toUtf8(), r.err.toUtf8()};
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(!qgetenv("SAHAJ_NODE").isEmpty(), "SAHAJ_NODE must name the sahaj-node executable");
        QVERIFY(dir_.isValid());
        tinyPath_ = dir_.filePath(QStringLiteral("tiny.json"));
        QFile file(tinyPath_);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(toBytes(tinyTokenizer()));
    }

    void linesBecomeJsonArrays() {
        const Run r = run({"--tokenizer", tinyPath_}, "ab [MASK] c\nabc\r\n\n12");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("[2,10,4,13,3]\n[2,10,8,3]\n[2,3]\n[2,5,14,15,3]\n"));
        QVERIFY(r.err.isEmpty());
    }

    void withoutSpecialTokens() {
        const Run r = run({"--tokenizer", tinyPath_, "--no-special-tokens"}, "ab [MASK] c\n");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("[10,4,13]\n"));
    }

    void emptyInputGivesNoOutput() {
        const Run r = run({"--tokenizer", tinyPath_}, QByteArray());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray());
    }

    void pairs() {
        const Run r = run({"--tokenizer", tinyPath_, "--pair"}, "ab\tc\n\tab\n");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("[2,10,3,13,3]\n[2,3,10,3]\n"));
        const Run plain = run({"--tokenizer", tinyPath_, "--pair", "--no-special-tokens"}, "ab\tc\n");
        QCOMPARE(plain.out, QByteArray("[10,13]\n"));
    }

    void pairLineWithoutTabFails() {
        const Run r = run({"--tokenizer", tinyPath_, "--pair"}, "ab\tc\nno tab here\nab\tc\n");
        QCOMPARE(r.exitCode, 1);
        // The line before the bad one is still answered.
        QCOMPARE(r.out, QByteArray("[2,10,3,13,3]\n"));
        QVERIFY2(r.err.contains("line 2") && r.err.contains("TAB"), r.err.constData());
    }

    void invalidUtf8Fails() {
        const Run r = run({"--tokenizer", tinyPath_}, "ab\nbad \xff\xfe byte\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("line 2") && r.err.contains("UTF-8"), r.err.constData());
        const Run overlong = run({"--tokenizer", tinyPath_}, "\xc0\xaf\n");
        QCOMPARE(overlong.exitCode, 1);
        QVERIFY2(overlong.err.contains("line 1"), overlong.err.constData());
    }

    void missingTokenizerOptionIsAUsageError() {
        const Run r = run({}, "ab\n");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--tokenizer"), r.err.constData());
    }

    void unreadableTokenizerFails() {
        const Run r = run({"--tokenizer", dir_.filePath(QStringLiteral("absent.json"))}, "ab\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("absent.json"), r.err.constData());
    }

    void sahajbertTokenizer() {
        const QString path = QString::fromLocal8Bit(qgetenv("SAHAJ_SHARED_DIR")) +
                             QStringLiteral("/data/sahajbert-tokenizer/tokenizer.json");
        if (qgetenv("SAHAJ_SHARED_DIR").isEmpty() || !QFile::exists(path))
            QSKIP(
                "the sahajBERT tokenizer.json is not available (SAHAJ_SHARED_DIR/data/sahajbert-tokenizer)");
        const Run r =
            run({"--tokenizer", path}, QString::fromUtf8("আমি বাংলায় গান গাই।\nআমি [MASK] গাই\n").toUtf8());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("[2,75,3265,721,5641,6,3]\n[2,75,4,5641,3]\n"));
    }
};

} // namespace

QTEST_GUILESS_MAIN(TokenizeCommandTest)
#include "tst_tokenize_command.moc"
