#include "core/run/ManifestObjectReader.h"

#include "core/run/ManifestRefusal.h"

#include <QJsonDocument>

#include <stdexcept>

namespace sahaj::run {

namespace {

[[noreturn]] void wrongType(const QString& field, const char* expected, const QJsonValue& value) {
    refuseManifest(QStringLiteral("%1 must be %2, got %3")
                       .arg(field, QLatin1String(expected), ManifestObjectReader::describe(value)));
}

} // namespace

ManifestObjectReader::ManifestObjectReader(QJsonObject object, QString path)
    : object_(std::move(object)), path_(std::move(path)) {}

QString ManifestObjectReader::field(const QString& key) const {
    return path_.isEmpty() ? key : path_ + '.' + key;
}

std::optional<QJsonValue> ManifestObjectReader::take(const QString& key) {
    read_.insert(key);
    const auto it = object_.constFind(key);
    if (it == object_.constEnd())
        return std::nullopt;
    return it.value();
}

QJsonValue ManifestObjectReader::required(const QString& key) {
    const std::optional<QJsonValue> value = take(key);
    if (!value)
        refuseManifest(field(key) + QStringLiteral(" is missing"));
    return *value;
}

QString ManifestObjectReader::string(const QString& key) {
    return toString(required(key), field(key));
}

std::optional<QString> ManifestObjectReader::optionalString(const QString& key) {
    const std::optional<QJsonValue> value = take(key);
    if (!value)
        return std::nullopt;
    return toString(*value, field(key));
}

std::int64_t ManifestObjectReader::integer(const QString& key, std::int64_t fallback) {
    const std::optional<QJsonValue> value = take(key);
    return value ? toInteger(*value, field(key)) : fallback;
}

double ManifestObjectReader::number(const QString& key, double fallback) {
    const std::optional<QJsonValue> value = take(key);
    return value ? toNumber(*value, field(key)) : fallback;
}

bool ManifestObjectReader::boolean(const QString& key, bool fallback) {
    const std::optional<QJsonValue> value = take(key);
    if (!value)
        return fallback;
    if (!value->isBool())
        wrongType(field(key), "true or false", *value);
    return value->toBool();
}

QJsonObject ManifestObjectReader::object(const QString& key) {
    return toObject(required(key), field(key));
}

std::optional<QJsonObject> ManifestObjectReader::optionalObject(const QString& key) {
    const std::optional<QJsonValue> value = take(key);
    if (!value)
        return std::nullopt;
    return toObject(*value, field(key));
}

QJsonArray ManifestObjectReader::array(const QString& key) {
    const QJsonValue value = required(key);
    if (!value.isArray())
        wrongType(field(key), "an array", value);
    return value.toArray();
}

QStringList ManifestObjectReader::stringArray(const QString& key) {
    const QJsonArray values = array(key);
    QStringList strings;
    for (qsizetype i = 0; i < values.size(); ++i)
        strings.append(toString(values.at(i), field(key) + QStringLiteral("[%1]").arg(i)));
    return strings;
}

void ManifestObjectReader::finish() const {
    for (auto it = object_.constBegin(); it != object_.constEnd(); ++it) {
        if (!read_.contains(it.key()))
            refuseManifest(QStringLiteral("unknown key \"%1\" (check its spelling; see docs/run-manifest.md)")
                               .arg(field(it.key())));
    }
}

QString ManifestObjectReader::toString(const QJsonValue& value, const QString& field) {
    if (!value.isString())
        wrongType(field, "a string", value);
    return value.toString();
}

std::int64_t ManifestObjectReader::toInteger(const QJsonValue& value, const QString& field) {
    // toInteger answers the fallback for numbers with a fraction or outside 64 bits; two different
    // fallbacks tell those apart from an integer that happens to equal one of them.
    if (value.isDouble()) {
        const qint64 a = value.toInteger(0);
        if (a == value.toInteger(1))
            return a;
    }
    wrongType(field, "an integer", value);
}

double ManifestObjectReader::toNumber(const QJsonValue& value, const QString& field) {
    if (!value.isDouble())
        wrongType(field, "a number", value);
    return value.toDouble();
}

QJsonObject ManifestObjectReader::toObject(const QJsonValue& value, const QString& field) {
    if (!value.isObject())
        wrongType(field, "an object", value);
    return value.toObject();
}

QString ManifestObjectReader::describe(const QJsonValue& value) {
    // A one-element array serialises any value, scalars included; the brackets come off again.
    const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    QString shown = QString::fromUtf8(text.mid(1, text.size() - 2));
    if (shown.size() > 80)
        shown = shown.left(77) + QStringLiteral("...");
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return shown;
    case QJsonValue::Double:
        return QStringLiteral("number ") + shown;
    case QJsonValue::String:
        return QStringLiteral("string ") + shown;
    case QJsonValue::Array:
        return QStringLiteral("array ") + shown;
    case QJsonValue::Object:
        return QStringLiteral("object ") + shown;
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

} // namespace sahaj::run
