#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <vector>

namespace sahaj::ui {

// The country outlines of the peer map, parsed from the compact JSON resources/map/README.md describes
// (Natural Earth 1:110m). Coordinates stay in degrees: x is the longitude, y the latitude (north is +y);
// the view projects them. A file that does not parse or break the format's rules gives an empty map and
// one sentence in error(), never a crash: the view shows that sentence instead of the map.
class WorldMap {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::WorldMap)

public:
    // The map compiled into the app.
    static constexpr const char* kResourcePath = ":/map/world-110m.json";
    // Far larger than the 1:110m file (160 kB): a file past this is not a map of this program.
    static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;

    struct Country {
        QString code;         // ISO 3166-1 alpha-2, upper case (XK, XN, XS for areas ISO gives no code)
        QString name;         // English, as Natural Earth labels it on small-scale maps
        QPointF label;        // (longitude, latitude) inside the largest polygon: where markers go
        QPainterPath outline; // every ring (outer boundaries and holes), filled with Qt::OddEvenFill
        QRectF bounds;        // of the outline: x from west to east, y from south to north
    };

    // Reads and checks `path` (a file or a ":/" resource). On any problem the map has no countries and
    // error() says what is wrong with which file.
    static WorldMap load(const QString& path);
    // The map at kResourcePath, parsed on first use and kept for the program's life.
    static const WorldMap& builtIn();

    bool isValid() const { return error_.isEmpty(); }
    const QString& error() const { return error_; }
    const std::vector<Country>& countries() const { return countries_; }
    // The country with ISO code `code` (any case), nullptr when the map has none (not shared, or a
    // territory too small for 1:110m such as Singapore).
    const Country* find(const QString& code) const;

private:
    WorldMap() = default;
    static WorldMap refused(const QString& error);

    std::vector<Country> countries_;
    QHash<QString, qsizetype> byCode_;
    QString error_;
};

} // namespace sahaj::ui
