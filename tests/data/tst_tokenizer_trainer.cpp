// Tokenizer training: a Unigram vocabulary learned on a small Bengali corpus, written as a sahajBERT-style
// tokenizer.json that Hugging Face tokenizers and our Tokenizer read to the same ids.
#include "core/text/Tokenizer.h"
#include "core/text/TokenizerJsonWriter.h"
#include "core/text/TokenizerTrainer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>

using namespace sahaj::text;

namespace {

constexpr int kVocab = 800;

QString thrownMessage(const std::function<void()>& action) {
    try {
        action();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QStringList readLines(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    lines.removeAll(QString());
    return lines;
}

TokenizerTrainerOptions smallOptions(int vocab = kVocab) {
    TokenizerTrainerOptions options;
    options.vocabSize = vocab;
    options.seed = 1;
    options.threads = 2; // fixed, so the result does not depend on the machine
    return options;
}

} // namespace

class TestTokenizerTrainer : public QObject {
    Q_OBJECT

private:
    QString corpus_;
    QString heldOut_;
    QTemporaryDir dir_;
    QByteArray trained_;

private Q_SLOTS:
    void initTestCase() {
        const QString source = qEnvironmentVariable("SAHAJ_SOURCE_DIR");
        corpus_ = source + "/tests/data/corpus/bn-train.txt";
        heldOut_ = source + "/tests/data/corpus/bn-heldout.txt";
        QVERIFY2(QFile::exists(corpus_) && QFile::exists(heldOut_), qPrintable(corpus_));
        TokenizerTrainer trainer(smallOptions());
        const QString error = thrownMessage([&] { trained_ = trainer.train(corpus_); });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(trainer.summary().documents, 400);
        QCOMPARE(trainer.summary().vocabSize, kVocab);
        QVERIFY(trainer.summary().distinctPreTokens > 0);
        QVERIFY(trainer.summary().preTokens >= trainer.summary().distinctPreTokens);
    }

    void writesTheSahajbertLayout() {
        const QJsonObject json = QJsonDocument::fromJson(trained_).object();
        const QJsonObject model = json["model"].toObject();
        QCOMPARE(model["type"].toString(), QString("Unigram"));
        QCOMPARE(model["unk_id"].toInt(), 1);
        const QJsonArray vocab = model["vocab"].toArray();
        QCOMPARE(vocab.size(), kVocab);
        const QStringList specials = {"<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"};
        QSet<QString> seen;
        for (int id = 0; id < vocab.size(); ++id) {
            const QString piece = vocab[id].toArray()[0].toString();
            const double score = vocab[id].toArray()[1].toDouble(1.0);
            if (id < specials.size()) {
                QCOMPARE(piece, specials[id]);
                QCOMPARE(score, 0.0);
            } else {
                QVERIFY2(score < 0.0 && std::isfinite(score), qPrintable(piece));
                QVERIFY(!piece.isEmpty());
                // No piece spans a pre-token boundary: "▁" only at the start, no spaces.
                QVERIFY2(piece.lastIndexOf(QChar(0x2581)) <= 0 && !piece.contains(' '), qPrintable(piece));
            }
            QVERIFY2(!seen.contains(piece), qPrintable(piece));
            seen.insert(piece);
        }
        const Tokenizer tokenizer = Tokenizer::fromJson(trained_, "trained");
        QCOMPARE(tokenizer.vocabSize(), kVocab);
        QCOMPARE(tokenizer.padId(), 0);
        QCOMPARE(tokenizer.unkId(), 1);
        QCOMPARE(tokenizer.clsId(), 2);
        QCOMPARE(tokenizer.sepId(), 3);
        QCOMPARE(tokenizer.maskId(), 4);
        // Training text encodes without unknown tokens.
        for (const QString& line : readLines(corpus_).mid(0, 50)) {
            const std::vector<int> ids = tokenizer.encodeIds(line);
            QVERIFY2(std::find(ids.begin(), ids.end(), 1) == ids.end(), qPrintable(line));
        }
    }

    void pipelineMatchesTheSahajbertTokenizer() {
        const QString shared = qEnvironmentVariable("SAHAJ_SHARED_DIR");
        QFile file(shared + "/data/sahajbert-tokenizer/tokenizer.json");
        if (shared.isEmpty() || !file.open(QIODevice::ReadOnly))
            QSKIP(
                "the sahajBERT tokenizer is not available under SAHAJ_SHARED_DIR/data/sahajbert-tokenizer/");
        const QJsonObject real = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject ours = QJsonDocument::fromJson(trained_).object();
        for (const char* section : {"version", "truncation", "padding", "added_tokens", "normalizer",
                                    "pre_tokenizer", "post_processor", "decoder"})
            QVERIFY2(real[section] == ours[section], section);
    }

    void trainingIsDeterministic() {
        TokenizerTrainer trainer(smallOptions());
        QCOMPARE(trainer.train(corpus_), trained_);
    }

    void maxDocumentsSamplesWithTheSeed() {
        TokenizerTrainerOptions options = smallOptions(300);
        options.maxDocuments = 250;
        TokenizerTrainer a(options), b(options);
        const QByteArray first = a.train(corpus_);
        QCOMPARE(a.summary().documents, 250);
        QCOMPARE(b.train(corpus_), first);
        options.seed = 2;
        TokenizerTrainer c(options);
        QVERIFY(c.train(corpus_) != first);
    }

    void vocabularyTooLargeOrTooSmallIsAClearError() {
        TokenizerTrainer large(smallOptions(20000));
        const QString tooLarge = thrownMessage([&] { large.train(corpus_); });
        QVERIFY2(tooLarge.contains("too large for this corpus"), qPrintable(tooLarge));
        TokenizerTrainer small(smallOptions(20));
        const QString tooSmall = thrownMessage([&] { small.train(corpus_); });
        QVERIFY2(tooSmall.contains("too small"), qPrintable(tooSmall));
        QVERIFY(thrownMessage([] { TokenizerTrainer t(smallOptions(5)); }).contains("vocabulary size"));
        const QString missing = thrownMessage([&] {
            TokenizerTrainer t(smallOptions());
            t.train(dir_.filePath("missing.txt"));
        });
        QVERIFY2(missing.contains("does not exist"), qPrintable(missing));
    }

    void huggingFaceTokenizersAgreeIdForId() {
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty())
            QSKIP("node is not installed: the Hugging Face tokenizers reference runs on Node.js");
        const QString modules = qEnvironmentVariable("SAHAJ_HF_TOKENIZERS_NODE_PATH");
        if (modules.isEmpty() || !QFile::exists(modules + "/tokenizers/package.json"))
            QSKIP(
                qPrintable("the tokenizers npm package is not installed in SAHAJ_HF_TOKENIZERS_NODE_PATH ('" +
                           modules + "'); run npm install --prefix <build>/hf-tokenizers tokenizers@0.23.2"));

        const QString tokenizerPath = dir_.filePath("tokenizer.json");
        QFile out(tokenizerPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(trained_);
        out.close();

        // Held-out lines (unseen text, with characters the vocabulary lacks) plus training lines, and a
        // few edge cases of the pipeline.
        QStringList lines = readLines(heldOut_);
        lines += readLines(corpus_).mid(0, 40);
        lines += QStringList{"",
                             "   ",
                             "আমি  বাংলায়   গান গাই।",
                             "সংখ্যা ১২৩৪৫ এবং 2024 সাল",
                             "হ্যাঁ: না|",
                             "Mixed ENGLISH text, with punctuation!!",
                             "[MASK] আমি [CLS]",
                             "\tট্যাব\u00a0স্পেস"};
        const QString inputPath = dir_.filePath("lines.json");
        QFile input(inputPath);
        QVERIFY(input.open(QIODevice::WriteOnly));
        input.write(QJsonDocument(QJsonArray::fromStringList(lines)).toJson(QJsonDocument::Compact));
        input.close();

        const QString script = dir_.filePath("encode.js");
        QFile js(script);
        QVERIFY(js.open(QIODevice::WriteOnly));
        js.write("const { Tokenizer } = require('tokenizers');\n"
                 "const fs = require('fs');\n"
                 "(async () => {\n"
                 "  const tok = Tokenizer.fromFile(process.argv[2]);\n"
                 "  const lines = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));\n"
                 "  const out = [];\n"
                 "  for (const line of lines) out.push(Array.from((await tok.encode(line)).getIds()));\n"
                 "  process.stdout.write(JSON.stringify(out));\n"
                 "})().catch(e => { console.error(e); process.exit(1); });\n");
        js.close();

        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("NODE_PATH", modules);
        process.setProcessEnvironment(env);
        process.start(node, {script, tokenizerPath, inputPath});
        QVERIFY(process.waitForFinished(120000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        const QJsonArray reference = QJsonDocument::fromJson(process.readAllStandardOutput()).array();
        QCOMPARE(reference.size(), lines.size());

        const Tokenizer ours = Tokenizer::fromFile(tokenizerPath);
        int unknown = 0;
        for (int i = 0; i < lines.size(); ++i) {
            const std::vector<int> ids = ours.encode(lines[i]).ids;
            std::vector<int> expected;
            for (const QJsonValue& v : reference[i].toArray())
                expected.push_back(v.toInt());
            QVERIFY2(ids == expected, qPrintable(QString("line %1: '%2'").arg(i).arg(lines[i])));
            unknown += static_cast<int>(std::count(ids.begin(), ids.end(), 1));
        }
        qInfo("%lld lines agree id for id (%d unknown tokens among them)",
              static_cast<long long>(lines.size()), unknown);
    }
};

QTEST_GUILESS_MAIN(TestTokenizerTrainer)
#include "tst_tokenizer_trainer.moc"
