#include "ui/widgets/WorldMap.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <optional>

namespace sahaj::ui {

namespace {

// A [lon, lat] pair in degrees, or nothing when the value is not one.
std::optional<QPointF> degrees(const QJsonValue& value) {
    const QJsonArray pair = value.toArray();
    if (!value.isArray() || pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble())
        return std::nullopt;
    const double lon = pair[0].toDouble();
    const double lat = pair[1].toDouble();
    if (!std::isfinite(lon) || !std::isfinite(lat) || std::abs(lon) > 180.0 || std::abs(lat) > 90.0)
        return std::nullopt;
    return QPointF(lon, lat);
}

bool isAlpha2(const QString& code) {
    return code.size() == 2 && code[0] >= QLatin1Char('A') && code[0] <= QLatin1Char('Z') &&
           code[1] >= QLatin1Char('A') && code[1] <= QLatin1Char('Z');
}

} // namespace

WorldMap WorldMap::refused(const QString& error) {
    WorldMap map;
    map.error_ = error;
    return map;
}

WorldMap WorldMap::load(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refused(tr("The world map %1 cannot be read: %2.").arg(path, file.errorString()));
    if (file.size() > kMaxFileBytes)
        return refused(tr("The world map %1 is too large (%2 bytes, at most %3).")
                           .arg(path)
                           .arg(file.size())
                           .arg(kMaxFileBytes));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.read(kMaxFileBytes), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return refused(tr("The world map %1 is not valid JSON: %2 at byte %3.")
                           .arg(path, parseError.errorString())
                           .arg(parseError.offset));
    const QJsonObject root = document.object();
    if (root.value(QLatin1String("format")).toString() != QLatin1String("sahaj-world-map") ||
        root.value(QLatin1String("version")).toInt() != 1)
        return refused(tr("The world map %1 is not in the sahaj-world-map format, version 1.").arg(path));
    const QJsonValue countriesValue = root.value(QLatin1String("countries"));
    if (!countriesValue.isArray() || countriesValue.toArray().isEmpty())
        return refused(tr("The world map %1 lists no countries.").arg(path));

    WorldMap map;
    const QJsonArray countries = countriesValue.toArray();
    map.countries_.reserve(countries.size());
    for (qsizetype i = 0; i < countries.size(); ++i) {
        const QJsonObject entry = countries[i].toObject();
        Country country;
        country.code = entry.value(QLatin1String("code")).toString();
        const auto problem = [&](const QString& what) {
            return refused(tr("The world map %1: country %2 (%3) %4.")
                               .arg(path)
                               .arg(i + 1)
                               .arg(country.code.isEmpty() ? tr("no code") : country.code.left(8), what));
        };
        if (!isAlpha2(country.code))
            return problem(tr("has no ISO 3166 alpha-2 code"));
        if (map.byCode_.contains(country.code))
            return problem(tr("is listed twice"));
        country.name = entry.value(QLatin1String("name")).toString();
        if (country.name.isEmpty())
            return problem(tr("has no name"));
        const std::optional<QPointF> label = degrees(entry.value(QLatin1String("label")));
        if (!label)
            return problem(tr("has no label point [longitude, latitude]"));
        country.label = *label;
        const QJsonArray rings = entry.value(QLatin1String("rings")).toArray();
        if (rings.isEmpty())
            return problem(tr("has no rings"));
        country.outline.setFillRule(Qt::OddEvenFill);
        for (const QJsonValue& ringValue : rings) {
            const QJsonArray ring = ringValue.toArray();
            // A closed ring repeats its first point: a triangle needs four.
            if (ring.size() < 4)
                return problem(tr("has a ring of fewer than four points"));
            for (qsizetype p = 0; p < ring.size(); ++p) {
                const std::optional<QPointF> point = degrees(ring[p]);
                if (!point)
                    return problem(tr("has a point that is not [longitude, latitude] in degrees"));
                if (p == 0)
                    country.outline.moveTo(*point);
                else
                    country.outline.lineTo(*point);
            }
            country.outline.closeSubpath();
        }
        country.bounds = country.outline.boundingRect();
        map.byCode_.insert(country.code, static_cast<qsizetype>(map.countries_.size()));
        map.countries_.push_back(std::move(country));
    }
    return map;
}

const WorldMap& WorldMap::builtIn() {
    static const WorldMap map = load(QString::fromLatin1(kResourcePath));
    return map;
}

const WorldMap::Country* WorldMap::find(const QString& code) const {
    const auto it = byCode_.constFind(code.toUpper());
    return it == byCode_.constEnd() ? nullptr : &countries_[static_cast<std::size_t>(*it)];
}

} // namespace sahaj::ui
