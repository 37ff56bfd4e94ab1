#include "core/text/CorpusReader.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>

#include <stdexcept>

namespace sahaj::text {

namespace {

CorpusFormat resolveFormat(const QString& path, CorpusFormat requested) {
    if (requested != CorpusFormat::Auto)
        return requested;
    const QString suffix = QFileInfo(CompressedFile::contentName(path)).suffix().toLower();
    return (suffix == QLatin1String("jsonl") || suffix == QLatin1String("json")) ? CorpusFormat::Jsonl
                                                                                 : CorpusFormat::PlainText;
}

} // namespace

QString CorpusReaderOptions::documentsName(PlainTextDocuments documents) {
    return documents == PlainTextDocuments::BlankLineSeparated ? QStringLiteral("paragraphs")
                                                               : QStringLiteral("lines");
}

std::optional<PlainTextDocuments> CorpusReaderOptions::documentsFromName(const QString& name) {
    if (name == QLatin1String("lines"))
        return PlainTextDocuments::LinePerDocument;
    if (name == QLatin1String("paragraphs"))
        return PlainTextDocuments::BlankLineSeparated;
    return std::nullopt;
}

CorpusReader::CorpusReader(const QString& path, CorpusReaderOptions options)
    : path_(path), options_(std::move(options)), format_(resolveFormat(path, options_.format)),
      file_(std::make_unique<CompressedFile>(path)) {
    const QFileInfo info(path);
    if (!info.exists())
        throw std::runtime_error(QStringLiteral("corpus file %1 does not exist").arg(path).toStdString());
    if (info.isDir())
        throw std::runtime_error(
            QStringLiteral("corpus %1 is a folder, expected a file").arg(path).toStdString());
    if (!file_->open(QIODevice::ReadOnly))
        throw std::runtime_error(
            QStringLiteral("cannot open corpus file %1: %2").arg(path, file_->errorString()).toStdString());
    if (options_.textField.isEmpty())
        throw std::invalid_argument("CorpusReader: the JSONL text field name is empty");
}

CorpusReader::~CorpusReader() = default;

void CorpusReader::fail(const QString& problem) const {
    throw std::runtime_error(
        QStringLiteral("%1:%2: %3").arg(path_).arg(lineNumber_).arg(problem).toStdString());
}

void CorpusReader::rewind() {
    if (!file_->reset())
        throw std::runtime_error(QStringLiteral("cannot rewind corpus file %1: %2")
                                     .arg(path_, file_->errorString())
                                     .toStdString());
    lineNumber_ = 0;
}

std::optional<QString> CorpusReader::readLine() {
    if (file_->atEnd())
        return std::nullopt;
    QByteArray bytes = file_->readLine();
    if (file_->failed())
        fail(QStringLiteral("read error: %1").arg(file_->errorString()));
    if (bytes.isEmpty() && file_->atEnd())
        return std::nullopt;
    ++lineNumber_;
    if (lineNumber_ == 1 && bytes.startsWith("\xEF\xBB\xBF"))
        bytes.remove(0, 3); // a UTF-8 byte-order mark is not text
    while (bytes.endsWith('\n') || bytes.endsWith('\r'))
        bytes.chop(1);
    return QString::fromUtf8(bytes);
}

std::optional<QString> CorpusReader::next() {
    switch (format_) {
    case CorpusFormat::Jsonl:
        return nextJsonDocument();
    case CorpusFormat::PlainText:
    case CorpusFormat::Auto:
        break;
    }
    return options_.documents == PlainTextDocuments::LinePerDocument ? nextPlainLine() : nextParagraph();
}

std::optional<QString> CorpusReader::nextPlainLine() {
    while (auto line = readLine()) {
        const QString text = line->trimmed();
        if (!text.isEmpty())
            return text;
    }
    return std::nullopt;
}

std::optional<QString> CorpusReader::nextParagraph() {
    QString document;
    while (auto line = readLine()) {
        const QString text = line->trimmed();
        if (text.isEmpty()) {
            if (!document.isEmpty())
                return document;
            continue;
        }
        if (!document.isEmpty())
            document += QLatin1Char('\n'); // the sentence splitter treats line breaks as boundaries
        document += text;
    }
    if (!document.isEmpty())
        return document;
    return std::nullopt;
}

std::optional<QString> CorpusReader::nextJsonDocument() {
    while (auto line = readLine()) {
        if (line->trimmed().isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonDocument json = QJsonDocument::fromJson(line->toUtf8(), &error);
        QString problem;
        if (error.error != QJsonParseError::NoError)
            problem =
                QStringLiteral("invalid JSON (%1 at offset %2)").arg(error.errorString()).arg(error.offset);
        else if (!json.isObject())
            problem = QStringLiteral("expected a JSON object");
        else if (!json.object().value(options_.textField).isString())
            problem = QStringLiteral("no string field \"%1\"").arg(options_.textField);
        if (!problem.isEmpty()) {
            if (options_.badLines == BadLinePolicy::Fail)
                fail(problem);
            ++skippedLines_;
            continue;
        }
        const QString text = json.object().value(options_.textField).toString().trimmed();
        if (!text.isEmpty())
            return text;
    }
    return std::nullopt;
}

} // namespace sahaj::text
