#include "core/eval/ConllReader.h"

#include "core/eval/BioTag.h"
#include "core/eval/DataFileError.h"
#include "core/eval/TextFileLines.h"

#include <QRegularExpression>

namespace sahaj::eval {

namespace {

// Long enough to recognise the line, short enough to keep the message on one screen line.
constexpr qsizetype kQuotedLineLength = 60;

QString quoted(const QString& line) {
    return QLatin1Char('\'') +
           (line.size() > kQuotedLineLength ? line.left(kQuotedLineLength) + QStringLiteral("...") : line) +
           QLatin1Char('\'');
}

} // namespace

std::vector<TaggedSentence> ConllReader::read(const QString& path) {
    static const QRegularExpression columnSeparator(QStringLiteral("[ \\t]+"));
    const QStringList lines = TextFileLines::read(path);
    std::vector<TaggedSentence> sentences;
    TaggedSentence sentence;
    const auto endSentence = [&] {
        if (!sentence.words.isEmpty())
            sentences.push_back(std::move(sentence));
        sentence = {};
    };
    for (qsizetype index = 0; index < lines.size(); ++index) {
        const qint64 lineNumber = index + 1;
        const QString line = lines[index].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1String("-DOCSTART-"))) {
            endSentence();
            continue;
        }
        const QStringList columns = line.split(columnSeparator, Qt::SkipEmptyParts);
        if (columns.size() < 2)
            throw DataFileError(
                path, lineNumber,
                QStringLiteral("expected a word and a tag separated by spaces or tabs, got %1")
                    .arg(quoted(line)));
        const QString& tag = columns.last();
        if (!BioTag::parse(tag))
            throw DataFileError(path, lineNumber,
                                QStringLiteral("tag '%1' is not %2").arg(tag, BioTag::syntax()));
        if (sentence.words.isEmpty())
            sentence.line = lineNumber;
        sentence.words.push_back(columns.first());
        sentence.tags.push_back(tag);
    }
    endSentence();
    if (sentences.empty())
        throw DataFileError(path, QStringLiteral("no sentences in the file"));
    return sentences;
}

} // namespace sahaj::eval
