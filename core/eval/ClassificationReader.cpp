#include "core/eval/ClassificationReader.h"

#include "core/eval/DataFileError.h"
#include "core/eval/TextFileLines.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cmath>
#include <optional>

namespace sahaj::eval {

namespace {

// Integers beyond 2^53 do not come through a JSON double exactly.
constexpr double kMaxExactInteger = 9007199254740992.0;

// A problem of the line being read; read() adds the file and line.
class LineProblem {
public:
    explicit LineProblem(QString problem) : problem(std::move(problem)) {}
    QString problem;
};

bool looksLikeJsonl(const QString& path, const QStringList& lines) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("json"))
        return true;
    for (const QString& line : lines) {
        const QString text = line.trimmed();
        if (!text.isEmpty())
            return text.startsWith(QLatin1Char('{'));
    }
    return false;
}

LabelledText example(const QString& text, const QString& label) {
    LabelledText parsed{text.trimmed(), label.trimmed(), 0};
    if (parsed.text.isEmpty())
        throw LineProblem(QStringLiteral("empty text"));
    if (parsed.label.isEmpty())
        throw LineProblem(QStringLiteral("empty label"));
    return parsed;
}

QString jsonLabel(const QJsonValue& value) {
    if (value.isString())
        return value.toString();
    const double number = value.toDouble();
    if (value.isDouble() && std::floor(number) == number && std::fabs(number) <= kMaxExactInteger)
        return QString::number(static_cast<qint64>(number));
    throw LineProblem(value.isUndefined() ? QStringLiteral("missing \"label\"")
                                          : QStringLiteral("\"label\" must be a string or an integer"));
}

LabelledText jsonExample(const QString& line) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(line.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        throw LineProblem(QStringLiteral("not JSON (%1 at offset %2); expected one object per line")
                              .arg(error.errorString())
                              .arg(error.offset));
    if (!document.isObject())
        throw LineProblem(QStringLiteral("expected a JSON object"));
    const QJsonObject object = document.object();
    const QJsonValue text = object.value(QLatin1String("text"));
    if (!text.isString())
        throw LineProblem(text.isUndefined() ? QStringLiteral("missing \"text\"")
                                             : QStringLiteral("\"text\" must be a string"));
    return example(text.toString(), jsonLabel(object.value(QLatin1String("label"))));
}

// Where text and label stand in a TSV line, and how many cells every line has.
struct TsvColumns {
    qsizetype text = 0;
    qsizetype label = 1;
    qsizetype count = 2;
};

// The columns a header line names, or nullopt when the line is an example.
std::optional<TsvColumns> headerColumns(const QStringList& cells) {
    const auto columnsNamed = [&cells](QLatin1String name) {
        QList<qsizetype> found;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            if (cells[i].trimmed().compare(name, Qt::CaseInsensitive) == 0)
                found.push_back(i);
        }
        return found;
    };
    const QList<qsizetype> text = columnsNamed(QLatin1String("text"));
    const QList<qsizetype> label = columnsNamed(QLatin1String("label"));
    if (text.isEmpty() || label.isEmpty())
        return std::nullopt;
    if (text.size() > 1 || label.size() > 1)
        throw LineProblem(QStringLiteral("the header names the column 'text' or 'label' more than once"));
    return TsvColumns{text.front(), label.front(), cells.size()};
}

LabelledText tsvExample(const QStringList& cells, const TsvColumns& columns) {
    if (cells.size() != columns.count)
        throw LineProblem(
            QStringLiteral("expected %1 tab-separated cells, got %2").arg(columns.count).arg(cells.size()));
    return example(cells[columns.text], cells[columns.label]);
}

} // namespace

std::vector<LabelledText> ClassificationReader::read(const QString& path) {
    const QStringList lines = TextFileLines::read(path);
    const bool jsonl = looksLikeJsonl(path, lines);
    std::vector<LabelledText> examples;
    std::optional<TsvColumns> columns;
    for (qsizetype index = 0; index < lines.size(); ++index) {
        const qint64 lineNumber = index + 1;
        const QString& line = lines[index];
        if (line.trimmed().isEmpty())
            continue;
        try {
            if (jsonl) {
                examples.push_back(jsonExample(line));
            } else {
                const QStringList cells = line.split(QLatin1Char('\t'));
                if (!columns) {
                    columns = headerColumns(cells);
                    if (columns)
                        continue;
                    columns = TsvColumns{};
                }
                examples.push_back(tsvExample(cells, *columns));
            }
        } catch (const LineProblem& problem) {
            throw DataFileError(path, lineNumber, problem.problem);
        }
        examples.back().line = lineNumber;
    }
    if (examples.empty())
        throw DataFileError(path, QStringLiteral("no examples in the file"));
    return examples;
}

} // namespace sahaj::eval
