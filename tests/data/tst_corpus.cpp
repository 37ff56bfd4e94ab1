// Corpus reading, sentence splitting, shuffling and stream positions: the text side of the data pipeline.
#include "core/text/CorpusReader.h"
#include "core/text/SentenceSplitter.h"
#include "core/text/ShuffleBuffer.h"
#include "core/text/StreamPosition.h"
#include "tests/common/TestFiles.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>
#include <stdexcept>

using namespace sahaj::text;

class TestCorpus : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& content) {
        return sahaj::test::writeFile(dir_, name, content);
    }

    static QStringList readAll(CorpusReader& reader) {
        QStringList documents;
        while (auto document = reader.next())
            documents.push_back(*document);
        return documents;
    }

    static QString thrownMessage(const std::function<void()>& action) { return sahaj::test::errorOf(action); }

private Q_SLOTS:
    void plainTextOneDocumentPerLine() {
        const QString path = write("lines.txt", "\xEF\xBB\xBF"
                                                "আমি গান গাই।\r\n\n  দ্বিতীয় লাইন  \nশেষ");
        CorpusReader reader(path);
        QCOMPARE(reader.format(), CorpusFormat::PlainText);
        QCOMPARE(readAll(reader), QStringList({"আমি গান গাই।", "দ্বিতীয় লাইন", "শেষ"}));
        reader.rewind();
        QCOMPARE(readAll(reader).size(), 3);
    }

    void plainTextBlankLineSeparated() {
        const QString path = write("paragraphs.txt", "এক।\nদুই।\n\n\nতিন।\n \nচার।\nপাঁচ।");
        CorpusReaderOptions options;
        options.documents = PlainTextDocuments::BlankLineSeparated;
        CorpusReader reader(path, options);
        QCOMPARE(readAll(reader), QStringList({"এক।\nদুই।", "তিন।", "চার।\nপাঁচ।"}));
    }

    void jsonlReadsTextField() {
        const QString path = write("docs.jsonl", "{\"text\": \"প্রথম\", \"id\": 1}\n\n{\"text\": \"  \"}\n"
                                                 "{\"text\": \"দ্বিতীয়\\nলাইন\"}\n");
        CorpusReader reader(path);
        QCOMPARE(reader.format(), CorpusFormat::Jsonl);
        QCOMPARE(readAll(reader), QStringList({"প্রথম", "দ্বিতীয়\nলাইন"}));
    }

    void jsonlBadLineFailsNamingFileAndLine() {
        const QString path = write("bad.jsonl", "{\"text\": \"ভালো\"}\n{\"text\": 5}\n");
        CorpusReader reader(path);
        QCOMPARE(*reader.next(), QString("ভালো"));
        const QString message = thrownMessage([&] { reader.next(); });
        QVERIFY2(message.contains(path + ":2:") && message.contains("\"text\""), qPrintable(message));

        const QString broken = write("broken.jsonl", "{\"text\": \"ভালো\"\n");
        CorpusReader brokenReader(broken);
        const QString parseMessage = thrownMessage([&] { brokenReader.next(); });
        QVERIFY2(parseMessage.contains(broken + ":1: invalid JSON"), qPrintable(parseMessage));
    }

    void jsonlBadLinesCanBeSkippedAndCounted() {
        const QString path = write(
            "mixed.jsonl", "[1]\n{\"text\": \"এক\"}\nnot json\n{\"body\": \"x\"}\n{\"text\": \"দুই\"}\n");
        CorpusReaderOptions options;
        options.badLines = BadLinePolicy::Skip;
        CorpusReader reader(path, options);
        QCOMPARE(readAll(reader), QStringList({"এক", "দুই"}));
        QCOMPARE(reader.skippedLines(), 3);
    }

    void missingOrFolderCorpusIsAClearError() {
        const QString missing = dir_.filePath("nope.txt");
        QVERIFY(thrownMessage([&] { CorpusReader reader(missing); }).contains("does not exist"));
        QVERIFY(thrownMessage([&] { CorpusReader reader(dir_.path()); }).contains("is a folder"));
    }

    void sentencesEndAtDandaQuestionExclamationAndDotSpace() {
        QCOMPARE(SentenceSplitter::split("আমি গান গাই। তুমি কি শুনবে? হ্যাঁ! ঠিক আছে"),
                 QStringList({"আমি গান গাই।", "তুমি কি শুনবে?", "হ্যাঁ!", "ঠিক আছে"}));
        QCOMPARE(SentenceSplitter::split("কবিতা॥ আবার৷ শেষ৤"),
                 QStringList({"কবিতা॥", "আবার৷", "শেষ৤"}));
        // '.' ends a sentence only before whitespace or at the end: versions and decimals stay whole.
        QCOMPARE(SentenceSplitter::split("Version 2.5 is out. Next one soon."),
                 QStringList({"Version 2.5 is out.", "Next one soon."}));
        // Runs of marks and closing quotes stay with their sentence; line breaks are boundaries.
        QCOMPARE(SentenceSplitter::split("সে বলল, “কী?!” তারপর\nচলে গেল"),
                 QStringList({"সে বলল, “কী?!”", "তারপর", "চলে গেল"}));
        QVERIFY(SentenceSplitter::split("  \n । ").size() == 1);
        QVERIFY(SentenceSplitter::split("").isEmpty());
    }

    void shuffleBufferIsASeededPermutation() {
        const auto run = [](std::uint64_t seed, std::size_t capacity) {
            ShuffleBuffer<int> buffer(capacity, seed);
            std::vector<int> out;
            for (int i = 0; i < 1000; ++i) {
                if (auto item = buffer.exchange(i))
                    out.push_back(*item);
            }
            while (auto item = buffer.take())
                out.push_back(*item);
            return out;
        };
        const std::vector<int> a = run(7, 100);
        QCOMPARE(a, run(7, 100));
        QVERIFY(a != run(8, 100));
        std::vector<int> sorted = a;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(sorted[static_cast<std::size_t>(i)], i);
        QVERIFY(!std::is_sorted(a.begin(), a.end()));
        // Capacity 1 leaves the order unchanged.
        const std::vector<int> one = run(7, 1);
        QVERIFY(std::is_sorted(one.begin(), one.end()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ShuffleBuffer<int>(0, 1));
    }

    void streamPositionRoundTripsThroughJson() {
        const StreamPosition position{12, 3, 4567, 2};
        QCOMPARE(StreamPosition::fromJson(position.toJson()), position);
        QJsonObject broken = position.toJson();
        broken["document"] = -1;
        QVERIFY(thrownMessage([&] { StreamPosition::fromJson(broken); }).contains("\"document\""));
        broken.remove("document");
        QVERIFY(thrownMessage([&] { StreamPosition::fromJson(broken); }).contains("\"document\""));
    }
};

QTEST_GUILESS_MAIN(TestCorpus)
#include "tst_corpus.moc"
