#include "app/node/ShardCommand.h"

#include "app/node/CommandLine.h"
#include "app/node/CorpusDocumentsOption.h"
#include "app/node/UrlPrefixOption.h"
#include "app/node/UsageError.h"
#include "core/run/RunManifest.h"
#include "core/run/ShardVerifier.h"
#include "core/text/CompressedFileWriter.h"
#include "core/text/CorpusReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QUrl>

#include <iostream>
#include <optional>

namespace sahaj::node {

namespace {

// A data.json lists shards' entries; a few MiB at most even for a large corpus.
constexpr qint64 kMaxDataFileBytes = 64ll << 20;

text::CompressedFile::Codec codecOption(const QCommandLineParser& parser) {
    const QString name = parser.isSet("compress") ? parser.value("compress") : QStringLiteral("none");
    if (name == QLatin1String("none"))
        return text::CompressedFile::Codec::None;
    if (name == QLatin1String("gzip"))
        return text::CompressedFile::Codec::Gzip;
    if (name == QLatin1String("zstd"))
        return text::CompressedFile::Codec::Zstd;
    throw UsageError("--compress must be none, gzip or zstd, got '" + name.toStdString() + "'");
}

QString suffixOf(text::CompressedFile::Codec codec) {
    switch (codec) {
    case text::CompressedFile::Codec::Gzip:
        return QStringLiteral(".jsonl.gz");
    case text::CompressedFile::Codec::Zstd:
        return QStringLiteral(".jsonl.zst");
    case text::CompressedFile::Codec::None:
        break;
    }
    return QStringLiteral(".jsonl");
}

} // namespace

QString ShardCommand::description() const {
    return QStringLiteral(
        "Split corpora (UTF-8 text, its documents cut by --documents, or JSONL with a \"text\" field; .gz "
        "and\n"
        ".zst are read through) into shards of about --shard-mb MB each, whole documents only, written as\n"
        "JSONL to OUT/NAME-00000.jsonl (.jsonl.gz or .jsonl.zst with --compress). OUT/data.json lists each\n"
        "shard's URLs (--url-prefix, else its local file), size, SHA-256 and --weight, for\n"
        "run-init --data OUT/data.json; serve OUT from a web server or the coordinator (--serve-data OUT).");
}

void ShardCommand::addOptions(QCommandLineParser& parser) const {
    parser.addOptions({
        {"corpus", "A corpus to split; repeat for several (their documents go into the shards in order).",
         "FILE"},
        {"shard-mb", "Uncompressed size of a shard, in MB (default 64; 0.001 to 100000).", "N"},
        {"out", "The folder for the shards and data.json (created; required).", "DIR"},
        {"compress", "none, gzip or zstd (default none).", "CODEC"},
        {"name", "The shards' file name prefix (default 'shard'; letters, digits, '-', '_').", "NAME"},
        {"weight", "The mixing weight of every shard written, in (0, 1000] (default 1).", "W"},
    });
    UrlPrefixOption::add(parser, QStringLiteral("the shards"));
    CorpusDocumentsOption::add(parser);
}

int ShardCommand::run(const QCommandLineParser& parser) {
    const QStringList corpora = parser.values("corpus");
    if (corpora.isEmpty())
        throw UsageError("give at least one --corpus");
    for (const QString& corpus : corpora)
        CommandLine::existingFile("corpus", corpus);
    const QString out = QDir(CommandLine::requiredValue(parser, "out")).absolutePath();
    const auto shardBytes = qint64(CommandLine::realValue(parser, "shard-mb", 64.0, 0.001, 100000.0) * 1e6);
    const text::CompressedFile::Codec codec = codecOption(parser);
    const QString name = parser.isSet("name") ? parser.value("name") : QStringLiteral("shard");
    static const QRegularExpression safeName(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    if (!safeName.match(name).hasMatch())
        throw UsageError("--name must be 1 to 64 letters, digits, '-' or '_', got '" + name.toStdString() +
                         "'");
    const double weight = CommandLine::realValue(parser, "weight", 1.0, 1e-9, 1000.0);
    if (!QDir().mkpath(out))
        throw std::runtime_error("cannot create the folder " + out.toStdString());

    text::CorpusReaderOptions readerOptions;
    readerOptions.documents =
        CorpusDocumentsOption::value(parser, text::PlainTextDocuments::BlankLineSeparated);
    std::vector<run::DataShard> shards;
    std::optional<text::CompressedFileWriter> writer;
    QString writing;
    qint64 documents = 0;
    const auto finish = [&] {
        if (!writer)
            return;
        writer->commit();
        writer.reset();
        run::DataShard shard = run::ShardVerifier::describe(writing);
        if (parser.isSet("url-prefix"))
            shard.urls = UrlPrefixOption::places(
                parser, QString::fromLatin1(QUrl::toPercentEncoding(QFileInfo(writing).fileName())));
        shard.weight = weight;
        for (const run::DataShard& earlier : shards)
            if (earlier.sha256 == shard.sha256) {
                // The same bytes twice (a corpus that repeats itself): trained on once is enough, and a
                // manifest may not list them twice.
                std::cout << "skipped " << writing.toStdString() << ": the same bytes as "
                          << earlier.urls.front().toStdString() << std::endl;
                QFile::remove(writing);
                return;
            }
        std::cout << "wrote " << writing.toStdString() << " (" << shard.bytes << " bytes)" << std::endl;
        shards.push_back(std::move(shard));
    };
    for (const QString& corpus : corpora) {
        text::CorpusReader reader(corpus, readerOptions);
        while (std::optional<QString> document = reader.next()) {
            if (!writer) {
                writing = QDir(out).filePath(QStringLiteral("%1-%2%3")
                                                 .arg(name)
                                                 .arg(shards.size(), 5, 10, QLatin1Char('0'))
                                                 .arg(suffixOf(codec)));
                writer.emplace(writing, codec);
            }
            QByteArray line = QJsonDocument(QJsonObject{{"text", *document}}).toJson(QJsonDocument::Compact);
            line.append('\n');
            writer->write(line);
            ++documents;
            if (writer->written() >= shardBytes)
                finish();
        }
    }
    finish();
    if (shards.empty())
        throw std::runtime_error("the corpora hold no document");

    const QString dataPath = QDir(out).filePath("data.json");
    QSaveFile file(dataPath);
    const QJsonObject json{{"format", kDataFormat}, {"data", run::RunManifest::shardsToJson(shards)}};
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0 || !file.commit())
        throw std::runtime_error("cannot write " + dataPath.toStdString() + ": " +
                                 file.errorString().toStdString());
    std::cout << "wrote " << dataPath.toStdString() << ": " << shards.size() << " shards, " << documents
              << " documents" << std::endl;
    return 0;
}

std::vector<run::DataShard> ShardCommand::readData(const QString& path) {
    QFile file(CommandLine::existingFile("data", path));
    if (!file.open(QIODevice::ReadOnly))
        throw UsageError("--data: cannot read " + path.toStdString() + ": " +
                         file.errorString().toStdString());
    if (file.size() > kMaxDataFileBytes)
        throw UsageError("--data: " + path.toStdString() + " is too large for a data.json");
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(file.readAll(), &error).object();
    if (error.error != QJsonParseError::NoError || json["format"].toString() != QLatin1String(kDataFormat))
        throw UsageError("--data: " + path.toStdString() +
                         " is not a data.json of sahaj-node shard (format " + kDataFormat + ")");
    try {
        return run::RunManifest::shardsFromJson(json["data"].toArray());
    } catch (const std::invalid_argument& e) {
        throw UsageError("--data: " + path.toStdString() + ": " + e.what());
    }
}

} // namespace sahaj::node
