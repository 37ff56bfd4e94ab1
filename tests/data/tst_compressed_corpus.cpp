// Compressed corpora: what CompressedFileWriter writes (none, gzip, zstd) CorpusReader reads back
// document for document, JSONL told by the name under the compression suffix; gzip members and zstd frames
// one after another read as one file; rewinding starts over; a truncated or damaged stream is an error
// naming the file, never a silent end; an interrupted write leaves no file.
#include "core/text/CompressedFile.h"
#include "core/text/CompressedFileWriter.h"
#include "core/text/CorpusReader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::text;

namespace {

using Codec = CompressedFile::Codec;

QStringList documents(int count) {
    QStringList out;
    for (int i = 0; i < count; ++i)
        out << QStringLiteral("নথি %1: আমার সোনার বাংলা, আমি তোমায় ভালোবাসি। %2")
                   .arg(i)
                   .arg(QString(i % 97 + 1, u'অ'));
    return out;
}

QByteArray jsonl(const QStringList& docs) {
    QByteArray bytes;
    for (const QString& doc : docs)
        bytes += QJsonDocument(QJsonObject{{"text", doc}}).toJson(QJsonDocument::Compact) + '\n';
    return bytes;
}

void writeWith(const QString& path, Codec codec, const QByteArray& bytes) {
    CompressedFileWriter writer(path, codec);
    // In pieces, as a shard is written document by document.
    for (qsizetype at = 0; at < bytes.size(); at += 1000)
        writer.write(bytes.mid(at, 1000));
    writer.commit();
}

QStringList readAll(const QString& path) {
    CorpusReader reader(path);
    QStringList out;
    while (std::optional<QString> doc = reader.next())
        out << *doc;
    return out;
}

QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void replaceFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

QString errorReading(const QString& path) {
    try {
        readAll(path);
    } catch (const std::runtime_error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestCompressedCorpus : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void roundTrips_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("codec");
        QTest::newRow("plain") << "a.jsonl" << int(Codec::None);
        QTest::newRow("gzip") << "a.jsonl.gz" << int(Codec::Gzip);
        QTest::newRow("zstd") << "a.jsonl.zst" << int(Codec::Zstd);
    }
    void roundTrips() {
        QFETCH(QString, name);
        QFETCH(int, codec);
        QCOMPARE(int(CompressedFile::codecOf(name)), codec);
        const QStringList docs = documents(3000); // several MB decompressed: many buffers
        const QString path = dir_.filePath(name);
        writeWith(path, Codec(codec), jsonl(docs));
        if (codec != int(Codec::None))
            QVERIFY(QFileInfo(path).size() < jsonl(docs).size() / 2);
        QCOMPARE(readAll(path), docs);
        // Rewinding starts the decompressor over.
        CorpusReader reader(path);
        QCOMPARE(reader.format(), CorpusFormat::Jsonl);
        QCOMPARE(*reader.next(), docs[0]);
        QCOMPARE(*reader.next(), docs[1]);
        reader.rewind();
        QCOMPARE(*reader.next(), docs[0]);
    }

    void membersAndFramesFollowOneAnother() {
        for (const auto& [name, codec] : {std::pair{QStringLiteral("two.txt.gz"), Codec::Gzip},
                                          std::pair{QStringLiteral("two.txt.zst"), Codec::Zstd}}) {
            writeWith(dir_.filePath("first"), codec, "one\ntwo\n");
            writeWith(dir_.filePath("second"), codec, "three\n");
            replaceFile(dir_.filePath(name),
                        fileBytes(dir_.filePath("first")) + fileBytes(dir_.filePath("second")));
            QCOMPARE(readAll(dir_.filePath(name)), QStringList({"one", "two", "three"}));
        }
    }

    void aTruncatedOrDamagedStreamIsAnError() {
        for (const auto& [name, codec] : {std::pair{QStringLiteral("cut.jsonl.gz"), Codec::Gzip},
                                          std::pair{QStringLiteral("cut.jsonl.zst"), Codec::Zstd}}) {
            const QString path = dir_.filePath(name);
            writeWith(path, codec, jsonl(documents(2000)));
            const QByteArray whole = fileBytes(path);
            replaceFile(path, whole.left(whole.size() * 2 / 3));
            const QString cut = errorReading(path);
            QVERIFY2(cut.contains(path) && cut.contains("cut short"), qPrintable(cut));

            QByteArray damaged = whole;
            for (qsizetype i = whole.size() / 3; i < whole.size() / 3 + 64; ++i)
                damaged[i] = char(damaged[i] ^ 0x5a);
            replaceFile(path, damaged);
            const QString broken = errorReading(path);
            // zlib and zstd notice the damage (a checksum or a bad code); the JSONL reader may notice first.
            QVERIFY2(!broken.isEmpty() && broken.contains(path), qPrintable(name + ": " + broken));
        }
    }

    void anInterruptedWriteLeavesNoFile() {
        const QString path = dir_.filePath("never.jsonl.zst");
        {
            CompressedFileWriter writer(path, Codec::Zstd);
            writer.write(jsonl(documents(10)));
        } // no commit
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_GUILESS_MAIN(TestCompressedCorpus)
#include "tst_compressed_corpus.moc"
