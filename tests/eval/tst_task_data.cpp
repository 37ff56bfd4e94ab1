// Fine-tuning task data: CoNLL NER files, classification files (JSONL and TSV) and label vocabularies,
// with the file and line every error must name.
#include "core/eval/ClassificationReader.h"
#include "core/eval/ConllReader.h"
#include "core/eval/LabelSet.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <stdexcept>

#include "tests/common/TestFiles.h"

using namespace sahaj::eval;

class TestTaskData : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return sahaj::test::writeFile(dir_, name, content);
    }

    // The message of the std::runtime_error the action throws; a test failure when it throws none.
    static QString runtimeError(const std::function<void()>& action) {
        try {
            action();
        } catch (const std::runtime_error& e) {
            return QString::fromStdString(e.what());
        }
        return QStringLiteral("(no std::runtime_error thrown)");
    }

    // Checks that reading a file with `content` fails at `path:line:` with a message containing `words`.
    void expectLineError(const std::function<void(const QString&)>& read, const QString& name,
                         const QByteArray& content, int line, const QString& words) {
        const QString path = write(name, content);
        const QString message = runtimeError([&] { read(path); });
        const QString where = QStringLiteral("%1:%2: ").arg(path).arg(line);
        QVERIFY2(message.startsWith(where) && message.contains(words),
                 qPrintable(QStringLiteral("expected '%1...%2', got '%3'").arg(where, words, message)));
    }

    void expectConllError(const QByteArray& content, int line, const QString& words) {
        expectLineError([](const QString& path) { ConllReader::read(path); }, QStringLiteral("bad.conll"),
                        content, line, words);
    }

    void expectClassificationError(const QString& name, const QByteArray& content, int line,
                                   const QString& words) {
        expectLineError([](const QString& path) { ClassificationReader::read(path); }, name, content, line,
                        words);
    }

    // Each example as "LINE|text|label", to compare a whole file's reading at once.
    static QStringList readExamples(const QString& path) {
        QStringList examples;
        for (const LabelledText& example : ClassificationReader::read(path))
            examples.push_back(QStringLiteral("%1|%2|%3").arg(example.line).arg(example.text, example.label));
        return examples;
    }

    static TaggedSentence sentence(const QStringList& words, const QStringList& tags, qint64 line) {
        return {words, tags, line};
    }

private Q_SLOTS:
    void conllReadsWordsAndLastColumnTags() {
        const QString path = write("train.conll", "\xEF\xBB\xBF"
                                                  "-DOCSTART- -X- -X- O\r\n" // 1
                                                  "\r\n"                     // 2
                                                  "আমি\tPRP\tO\r\n"          // 3
                                                  "রবীন্দ্রনাথ  NNP B-PER\r\n" // 4
                                                  "ঠাকুর NNP\tI-PER\r\n"      // 5
                                                  "\r\n"                     // 6
                                                  "  \t \r\n"                // 7
                                                  "\n"                       // 8
                                                  "ঢাকা B-LOC\n"             // 9
                                                  "-DOCSTART- O\n"           // 10: ends the sentence
                                                  "শহর O\n"                  // 11
                                                  "ও\t\tI-MISC");            // 12, no line break
        const std::vector<TaggedSentence> sentences = ConllReader::read(path);
        QCOMPARE(sentences.size(), 3u);
        QCOMPARE(sentences[0].words, QStringList({"আমি", "রবীন্দ্রনাথ", "ঠাকুর"}));
        QCOMPARE(sentences[0].tags, QStringList({"O", "B-PER", "I-PER"}));
        QCOMPARE(sentences[0].line, 3);
        QCOMPARE(sentences[1].words, QStringList({"ঢাকা"}));
        QCOMPARE(sentences[1].tags, QStringList({"B-LOC"}));
        QCOMPARE(sentences[1].line, 9);
        QCOMPARE(sentences[2].words, QStringList({"শহর", "ও"}));
        QCOMPARE(sentences[2].tags, QStringList({"O", "I-MISC"}));
        QCOMPARE(sentences[2].line, 11);
    }

    void conllBadLinesNameFileAndLine() {
        expectConllError("আমি O\nএকা\n", 2, "expected a word and a tag");
        expectConllError("a O\n\nb E-PER\n", 3, "tag 'E-PER' is not O, B-TYPE or I-TYPE");
        expectConllError("a PER\n", 1, "tag 'PER'");
        expectConllError("a O\r\nb B-\r\n", 2, "tag 'B-'");
        expectConllError("a O\nb b-per\n", 2, "tag 'b-per'");
        expectConllError("a O\n\xFF\xFE O\n", 2, "not valid UTF-8");
    }

    void conllFileWithoutSentencesIsAnError() {
        for (const QByteArray& content :
             {QByteArray(), QByteArray("\n \n"), QByteArray("-DOCSTART- O\n\n")}) {
            const QString path = write("empty.conll", content);
            const QString message = runtimeError([&] { ConllReader::read(path); });
            QCOMPARE(message, path + ": no sentences in the file");
        }
        const QString missing = dir_.filePath("missing.conll");
        QCOMPARE(runtimeError([&] { ConllReader::read(missing); }), missing + ": no such file");
        QCOMPARE(runtimeError([&] { ConllReader::read(dir_.path()); }),
                 dir_.path() + ": is a folder, expected a file");
    }

    void classificationReadsJsonl() {
        const QString path = write("reviews.jsonl", "{\"text\": \"ভালো বই\", \"label\": \"pos\"}\n"
                                                    "\n"
                                                    "{\"text\": \" খারাপ \", \"label\": 0, \"id\": 7}\n"
                                                    "{\"label\": -12, \"text\": \"x\"}");
        QCOMPARE(readExamples(path), QStringList({"1|ভালো বই|pos", "3|খারাপ|0", "4|x|-12"}));

        // Any other name is JSONL when its first non-blank character is '{'.
        const QString detected =
            write("data.txt", "\xEF\xBB\xBF\r\n  {\"text\": \"a\tb\", \"label\": 3}\r\n");
        QCOMPARE(readExamples(detected), QStringList({"2|a\tb|3"}));
    }

    void classificationReadsTsvWithAndWithoutHeader() {
        const QString plain = write("plain.tsv", "ভালো বই\tpos\r\n\r\nখারাপ\tneg \n");
        QCOMPARE(readExamples(plain), QStringList({"1|ভালো বই|pos", "3|খারাপ|neg"}));

        const QString headed = write("headed.tsv", "id\tLabel\tTEXT\n1\tpos\tভালো\n2\t1\tখারাপ\n");
        QCOMPARE(readExamples(headed), QStringList({"2|ভালো|pos", "3|খারাপ|1"}));
    }

    void classificationBadLinesNameFileAndLine() {
        const QByteArray good = "{\"text\": \"a\", \"label\": \"x\"}\n";
        expectClassificationError("bad.jsonl", good + "not json\n", 2, "not JSON");
        expectClassificationError("bad.jsonl", good + "[1]\n", 2, "expected a JSON object");
        expectClassificationError("bad.jsonl", good + "{\"label\": 1}\n", 2, "missing \"text\"");
        expectClassificationError("bad.jsonl", good + "{\"text\": 5, \"label\": 1}\n", 2,
                                  "\"text\" must be a string");
        expectClassificationError("bad.jsonl", good + "\n{\"text\": \"a\"}\n", 3, "missing \"label\"");
        expectClassificationError("bad.json", good + "{\"text\": \"a\", \"label\": 1.5}\n", 2,
                                  "\"label\" must be a string or an integer");
        expectClassificationError("bad.jsonl", good + "{\"text\": \"a\", \"label\": true}\n", 2,
                                  "\"label\" must be a string or an integer");
        expectClassificationError("bad.jsonl", good + "{\"text\": \"a\", \"label\": 1e300}\n", 2,
                                  "\"label\" must be a string or an integer");
        expectClassificationError("bad.jsonl", good + "{\"text\": \"  \", \"label\": 1}\n", 2, "empty text");
        expectClassificationError("bad.jsonl", good + "{\"text\": \"a\", \"label\": \"\"}\n", 2,
                                  "empty label");

        expectClassificationError("bad.tsv", "a\tpos\nb\tneg\textra\n", 2,
                                  "expected 2 tab-separated cells, got 3");
        expectClassificationError("bad.tsv", "a\tpos\n\nno label\n", 3,
                                  "expected 2 tab-separated cells, got 1");
        expectClassificationError("bad.tsv", "a\tpos\n\tneg\n", 2, "empty text");
        expectClassificationError("bad.tsv", "a\tpos\nb\t \n", 2, "empty label");
        expectClassificationError("bad.tsv", "text\tlabel\tid\na\tpos\n", 2,
                                  "expected 3 tab-separated cells, got 2");
        expectClassificationError("bad.tsv", "text\tlabel\tTEXT\na\tpos\tb\n", 1, "more than once");
        expectClassificationError("bad.tsv", "a\tpos\n\xC3\x28\tneg\n", 2, "not valid UTF-8");
    }

    void classificationFileWithoutExamplesIsAnError() {
        for (const auto& [name, content] :
             {std::pair{"empty.tsv", QByteArray()}, std::pair{"header.tsv", QByteArray("text\tlabel\n\n")},
              std::pair{"blank.jsonl", QByteArray("\n  \n")}}) {
            const QString path = write(name, content);
            QCOMPARE(runtimeError([&] { ClassificationReader::read(path); }),
                     path + ": no examples in the file");
        }
    }

    void labelSetForTagsListsBothTagsOfEveryType() {
        const std::vector<TaggedSentence> sentences{
            sentence({"a", "b", "c"}, {"O", "B-PER", "I-LOC"}, 1),
            sentence({"d", "e", "f"}, {"B-MISC", "I-MISC", "B-LOC"}, 5),
        };
        const LabelSet labels = LabelSet::forTags(sentences);
        QCOMPARE(labels.names(), QStringList({"O", "B-LOC", "I-LOC", "B-MISC", "I-MISC", "B-PER", "I-PER"}));
        QCOMPARE(labels.size(), 7);
        QCOMPARE(labels.id("O"), 0);
        QCOMPARE(labels.id("I-PER"), 6);
        QCOMPARE(labels.id("B-ORG"), -1);
        QCOMPARE(labels.name(3), QString("B-MISC"));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, labels.name(7));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, labels.name(-1));

        QCOMPARE(LabelSet::forTags({}).names(), QStringList({"O"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LabelSet::forTags({sentence({"a"}, {"E-PER"}, 1)}));
    }

    void labelSetForClassesSortsNumbersNumerically() {
        const auto examples = [](const QStringList& labels) {
            std::vector<LabelledText> result;
            for (const QString& label : labels)
                result.push_back({QStringLiteral("text"), label, static_cast<qint64>(result.size()) + 1});
            return result;
        };
        QCOMPARE(LabelSet::forClasses(examples({"10", "2", "-1", "2", "0"})).names(),
                 QStringList({"-1", "0", "2", "10"}));
        // Not all integers: QString::compare, so digits, then upper case, then lower case.
        QCOMPARE(LabelSet::forClasses(examples({"pos", "neg", "10", "Neutral", "pos"})).names(),
                 QStringList({"10", "Neutral", "neg", "pos"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LabelSet::forClasses({}));
    }

    void labelSetFromNamesKeepsOrderAndRejectsBadNames() {
        const LabelSet labels = LabelSet::fromNames({"neg", "pos", "neutral"});
        QCOMPARE(labels.names(), QStringList({"neg", "pos", "neutral"}));
        QCOMPARE(labels.id("neutral"), 2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LabelSet::fromNames({"a", "b", "a"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LabelSet::fromNames({"a", ""}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LabelSet::fromNames({}));
    }

    void checkCoversNamesTheFirstUnknownLabel() {
        const LabelSet tags = LabelSet::forTags({sentence({"a", "b"}, {"B-PER", "I-PER"}, 1)});
        const std::vector<TaggedSentence> dev{
            sentence({"x", "y"}, {"O", "I-PER"}, 2),
            // Word i of a sentence stands on its line + i: B-ORG on line 6, B-LOC on line 7.
            sentence({"x", "y", "z"}, {"O", "B-ORG", "B-LOC"}, 5),
        };
        QCOMPARE(
            runtimeError([&] { tags.checkCovers(dev, "dev.conll"); }),
            QString(
                "dev.conll:6: label 'B-ORG' does not occur in the training data (known: O, B-PER, I-PER)"));
        tags.checkCovers({dev[0]}, "dev.conll");

        const LabelSet classes = LabelSet::fromNames({"neg", "pos"});
        const std::vector<LabelledText> examples{{"a", "pos", 1}, {"b", "neutral", 4}, {"c", "other", 5}};
        QCOMPARE(runtimeError([&] { classes.checkCovers(examples, "dev.tsv"); }),
                 QString("dev.tsv:4: label 'neutral' does not occur in the training data (known: neg, pos)"));
        classes.checkCovers({examples[0]}, "dev.tsv");
    }
};

QTEST_GUILESS_MAIN(TestTaskData)
#include "tst_task_data.moc"
