#include "core/eval/MaskedLmJsonl.h"

#include "core/text/PretrainingExample.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <cmath>
#include <stdexcept>

namespace sahaj::eval {

namespace {

// Integers beyond 2^53 cannot come through a JSON double exactly; no id or label is anywhere near it.
constexpr double kMaxExactInteger = 9007199254740992.0;

class LineError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::int64_t integerOf(const QJsonValue& value, const QString& what) {
    const double number = value.toDouble();
    if (!value.isDouble() || !std::isfinite(number) || std::floor(number) != number ||
        std::fabs(number) > kMaxExactInteger)
        throw LineError(("\"" + what + "\" must be an integer").toStdString());
    return static_cast<std::int64_t>(number);
}

std::vector<std::int64_t> integerArray(const QJsonObject& object, const QString& key) {
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        throw LineError(("missing \"" + key + "\"").toStdString());
    if (!value.isArray())
        throw LineError(("\"" + key + "\" must be an array of integers").toStdString());
    const QJsonArray array = value.toArray();
    if (array.isEmpty())
        throw LineError(("\"" + key + "\" is empty").toStdString());
    if (static_cast<std::size_t>(array.size()) > MaskedLmJsonl::kMaxSequenceLength)
        throw LineError(("\"" + key + "\" has " + QString::number(array.size()) + " entries, more than " +
                         QString::number(MaskedLmJsonl::kMaxSequenceLength))
                            .toStdString());
    std::vector<std::int64_t> values;
    values.reserve(static_cast<std::size_t>(array.size()));
    for (const QJsonValue& item : array)
        values.push_back(integerOf(item, key + " entry"));
    return values;
}

MaskedLmRecord parseRecord(const QByteArray& line) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError)
        throw LineError("not JSON: " + error.errorString().toStdString());
    if (!document.isObject())
        throw LineError("not a JSON object");
    const QJsonObject object = document.object();

    MaskedLmRecord record;
    record.inputIds = integerArray(object, "input_ids");
    record.tokenTypeIds = integerArray(object, "token_type_ids");
    record.attentionMask = integerArray(object, "attention_mask");
    record.labels = integerArray(object, "labels");
    const std::size_t length = record.inputIds.size();
    if (record.tokenTypeIds.size() != length || record.attentionMask.size() != length ||
        record.labels.size() != length)
        throw LineError("input_ids, token_type_ids, attention_mask and labels must have the same length (" +
                        std::to_string(length) + ", " + std::to_string(record.tokenTypeIds.size()) + ", " +
                        std::to_string(record.attentionMask.size()) + ", " +
                        std::to_string(record.labels.size()) + ")");
    for (std::size_t i = 0; i < length; ++i) {
        if (record.inputIds[i] < 0 || record.tokenTypeIds[i] < 0)
            throw LineError("negative token or type id at position " + std::to_string(i));
        if (record.attentionMask[i] != 0 && record.attentionMask[i] != 1)
            throw LineError("attention_mask must hold 0 or 1, got " +
                            std::to_string(record.attentionMask[i]));
        if (record.labels[i] < text::kIgnoreLabel ||
            (record.labels[i] < 0 && record.labels[i] != text::kIgnoreLabel))
            throw LineError("labels must be token ids or -100, got " + std::to_string(record.labels[i]));
        if (record.labels[i] != text::kIgnoreLabel && record.attentionMask[i] == 0)
            throw LineError("a label at padded position " + std::to_string(i));
    }
    const QJsonValue sop = object.value("sentence_order_label");
    if (sop.isUndefined())
        throw LineError("missing \"sentence_order_label\"");
    record.sentenceOrderLabel = integerOf(sop, "sentence_order_label");
    if (record.sentenceOrderLabel != 0 && record.sentenceOrderLabel != 1)
        throw LineError("sentence_order_label must be 0 or 1, got " +
                        std::to_string(record.sentenceOrderLabel));
    return record;
}

QJsonArray toArray(const std::vector<std::int64_t>& values) {
    QJsonArray array;
    for (const std::int64_t value : values)
        array.append(static_cast<qint64>(value));
    return array;
}

} // namespace

std::vector<MaskedLmRecord> MaskedLmJsonl::read(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(path.toStdString() + ": cannot open: " + file.errorString().toStdString());
    std::vector<MaskedLmRecord> records;
    std::int64_t lineNumber = 0;
    while (!file.atEnd()) {
        QByteArray line = file.readLine();
        ++lineNumber;
        if (lineNumber == 1 && line.startsWith("\xEF\xBB\xBF"))
            line.remove(0, 3);
        if (line.trimmed().isEmpty())
            continue;
        try {
            records.push_back(parseRecord(line));
        } catch (const LineError& e) {
            throw std::runtime_error(path.toStdString() + ":" + std::to_string(lineNumber) + ": " + e.what());
        }
        records.back().line = lineNumber;
    }
    if (file.error() != QFileDevice::NoError)
        throw std::runtime_error(path.toStdString() + ": read error: " + file.errorString().toStdString());
    if (records.empty())
        throw std::runtime_error(path.toStdString() + ": no examples in the file");
    return records;
}

void MaskedLmJsonl::write(const QString& path, const std::vector<MaskedLmRecord>& records) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw std::runtime_error(path.toStdString() + ": cannot write: " + file.errorString().toStdString());
    for (const MaskedLmRecord& record : records) {
        const QJsonObject object{
            {"input_ids", toArray(record.inputIds)},
            {"token_type_ids", toArray(record.tokenTypeIds)},
            {"attention_mask", toArray(record.attentionMask)},
            {"labels", toArray(record.labels)},
            {"sentence_order_label", static_cast<qint64>(record.sentenceOrderLabel)},
        };
        file.write(QJsonDocument(object).toJson(QJsonDocument::Compact));
        file.write("\n");
    }
    if (!file.commit())
        throw std::runtime_error(path.toStdString() + ": cannot write: " + file.errorString().toStdString());
}

MaskedLmRecord MaskedLmJsonl::fromExample(const text::PretrainingExample& example) {
    MaskedLmRecord record;
    record.inputIds = example.inputIds;
    record.tokenTypeIds = example.tokenTypeIds;
    record.attentionMask.assign(example.inputIds.size(), 1);
    record.labels = example.mlmLabels.empty()
                        ? std::vector<std::int64_t>(example.inputIds.size(), text::kIgnoreLabel)
                        : example.mlmLabels;
    record.sentenceOrderLabel = example.sopLabel;
    return record;
}

} // namespace sahaj::eval
