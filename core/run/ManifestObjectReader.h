#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace sahaj::run {

// Reads one JSON object of a run manifest strictly. Each read remembers its key, and finish() refuses the
// keys nobody asked for: a typo in an organiser's file must fail loudly, not fall back to a default.
// Errors are std::invalid_argument naming the field by its path in the manifest ("training.lr").
class ManifestObjectReader {
public:
    // `path` is the object's own place in the manifest ("" for the top level, "training", "data[0]").
    ManifestObjectReader(QJsonObject object, QString path);

    // The full name of a key of this object, as errors print it.
    QString field(const QString& key) const;

    QJsonValue required(const QString& key);
    QString string(const QString& key);
    std::optional<QString> optionalString(const QString& key);
    std::int64_t integer(const QString& key, std::int64_t fallback);
    double number(const QString& key, double fallback);
    bool boolean(const QString& key, bool fallback);
    QJsonObject object(const QString& key);
    std::optional<QJsonObject> optionalObject(const QString& key);
    QJsonArray array(const QString& key);
    // An array of strings; errors name the element ("coordinators[2]").
    QStringList stringArray(const QString& key);

    // Throws naming the first key (in sorted order) that no read asked for.
    void finish() const;

    // Typed access to a value found anywhere (an array element), with `field` naming it in errors.
    static QString toString(const QJsonValue& value, const QString& field);
    static std::int64_t toInteger(const QJsonValue& value, const QString& field);
    static double toNumber(const QJsonValue& value, const QString& field);
    static QJsonObject toObject(const QJsonValue& value, const QString& field);
    // The value as an error shows it: its JSON type and text ("string \"12\"").
    static QString describe(const QJsonValue& value);

private:
    std::optional<QJsonValue> take(const QString& key);

    QJsonObject object_;
    QString path_;
    QSet<QString> read_;
};

} // namespace sahaj::run
