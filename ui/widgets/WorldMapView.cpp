#include "ui/widgets/WorldMapView.h"

#include "ui/format/CountryNames.h"
#include "ui/format/Figures.h"
#include "ui/widgets/PeerRole.h"
#include "ui/widgets/PlainToolTip.h"

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace sahaj::ui {

namespace {

const QColor kSea(0xdd, 0xea, 0xf4);
const QColor kLand(0xc6, 0xc6, 0xc6);
const QColor kBorder(0xf7, 0xf7, 0xf7);
const QColor kSelfOutline(0x1a, 0x1a, 0x1a);
constexpr double kWidthDegrees = 360.0;
constexpr double kHeightDegrees = WorldMapView::kNorth - WorldMapView::kSouth;

} // namespace

WorldMapView::WorldMapView(const WorldMap& map, QWidget* parent) : QWidget(parent), map_(map) {
    setAccessibleName(tr("World map of peers"));
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    updateDescription();
}

void WorldMapView::setPeers(std::vector<engine::PeerSighting> peers) {
    peers_ = std::move(peers);
    updateDescription();
    update();
}

void WorldMapView::setHighlightedPeer(const QString& peerId) {
    if (peerId == highlighted_)
        return;
    highlighted_ = peerId;
    update();
}

QRectF WorldMapView::mapRect() const {
    const double scale = std::min(width() / kWidthDegrees, height() / kHeightDegrees);
    const QSizeF size(kWidthDegrees * scale, kHeightDegrees * scale);
    return QRectF(QPointF((width() - size.width()) / 2.0, (height() - size.height()) / 2.0), size);
}

QPointF WorldMapView::project(double longitude, double latitude) const {
    const QRectF map = mapRect();
    return {map.left() + (longitude + 180.0) / kWidthDegrees * map.width(),
            map.top() + (kNorth - latitude) / kHeightDegrees * map.height()};
}

std::vector<WorldMapView::Dot> WorldMapView::dots() const {
    // Peers grouped by country, in the order the snapshot lists them.
    std::vector<std::pair<const WorldMap::Country*, std::vector<std::size_t>>> groups;
    for (std::size_t i = 0; i < peers_.size(); ++i) {
        const WorldMap::Country* country =
            peers_[i].country.isEmpty() ? nullptr : map_.find(peers_[i].country);
        if (!country)
            continue;
        auto group = std::find_if(groups.begin(), groups.end(),
                                  [&](const auto& entry) { return entry.first == country; });
        if (group == groups.end())
            groups.push_back({country, {i}});
        else
            group->second.push_back(i);
    }

    std::vector<Dot> dots;
    std::vector<Dot> selfDots; // drawn last, so on top
    for (const auto& [country, members] : groups) {
        const QPointF centre = project(country->label.x(), country->label.y());
        const auto count = members.size();
        // Far enough apart that neighbouring dots do not touch, however many share the country.
        const double spacing = 2.0 * kSelfDotRadius + 2.0;
        const double fan =
            count < 2
                ? 0.0
                : std::max(spacing / 1.5, static_cast<double>(count) * spacing / (2.0 * std::numbers::pi));
        for (std::size_t k = 0; k < count; ++k) {
            const double angle = -std::numbers::pi / 2.0 +
                                 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(count);
            const std::size_t peer = members[k];
            Dot dot{peer, centre + QPointF(std::cos(angle), std::sin(angle)) * fan,
                    peers_[peer].self ? kSelfDotRadius : kDotRadius};
            (peers_[peer].self ? selfDots : dots).push_back(dot);
        }
    }
    dots.insert(dots.end(), selfDots.begin(), selfDots.end());
    return dots;
}

const WorldMapView::Dot* WorldMapView::dotAt(const std::vector<Dot>& dots, QPointF pos) const {
    // The last drawn is the topmost; a little slack makes small dots easy to hover.
    for (auto it = dots.rbegin(); it != dots.rend(); ++it) {
        const QPointF d = pos - it->centre;
        if (std::hypot(d.x(), d.y()) <= it->radius + 2.0)
            return &*it;
    }
    return nullptr;
}

std::optional<QPointF> WorldMapView::peerPosition(const QString& peerId) const {
    for (const Dot& dot : dots())
        if (peers_[dot.peer].peerId == peerId)
            return dot.centre;
    return std::nullopt;
}

int WorldMapView::drawnPeerCount() const {
    return static_cast<int>(dots().size());
}

QString WorldMapView::peerAt(QPointF pos) const {
    const std::vector<Dot> all = dots();
    const Dot* dot = dotAt(all, pos);
    return dot ? peers_[dot->peer].peerId : QString();
}

QString WorldMapView::countryName(const QString& code) const {
    if (code.isEmpty())
        return tr("not shared");
    if (const QString name = CountryNames::of(code); !name.isEmpty())
        return name;
    if (const WorldMap::Country* country = map_.find(code))
        return country->name;
    return code.left(3);
}

QString WorldMapView::toolTipAt(QPointF pos) const {
    const std::vector<Dot> all = dots();
    const Dot* dot = dotAt(all, pos);
    if (!dot)
        return {};
    const engine::PeerSighting& peer = peers_[dot->peer];
    const QString id = Figures::shortPeerId(peer.peerId);
    const QString latency = latencyText(peer);
    return QStringList{peer.self ? tr("Peer %1 (this computer)").arg(id) : tr("Peer %1").arg(id),
                       tr("Role: %1").arg(PeerRole::name(peer.role)),
                       tr("Country: %1").arg(countryName(peer.country)),
                       tr("Speed: %1").arg(Figures::mbps(peer.mbps)), tr("Latency: %1").arg(latency)}
        .join(QLatin1Char('\n'));
}

QSize WorldMapView::sizeHint() const {
    return {760, 320};
}

QSize WorldMapView::minimumSizeHint() const {
    return {300, 130};
}

bool WorldMapView::event(QEvent* event) {
    return PlainToolTip::answer(this, event, [this](QPointF pos) { return toolTipAt(pos); }) ||
           QWidget::event(event);
}

void WorldMapView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        if (const QString peer = peerAt(event->position()); !peer.isEmpty()) {
            Q_EMIT peerClicked(peer);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

void WorldMapView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().color(QPalette::Window));
    if (!map_.isValid()) {
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, map_.error());
        return;
    }

    const QRectF map = mapRect();
    painter.fillRect(map, kSea);
    painter.save();
    painter.setClipRect(map);
    const double scale = map.width() / kWidthDegrees;
    // Longitude right, latitude up: the y axis flips.
    painter.setTransform(
        QTransform(scale, 0, 0, -scale, map.left() + 180.0 * scale, map.top() + kNorth * scale));
    QPen border(kBorder, 0.8);
    border.setCosmetic(true);
    painter.setPen(border);
    painter.setBrush(kLand);
    for (const WorldMap::Country& country : map_.countries())
        if (country.bounds.bottom() > kSouth) // bottom(): the northernmost latitude
            painter.drawPath(country.outline);
    painter.restore();

    for (const Dot& dot : dots()) {
        const engine::PeerSighting& peer = peers_[dot.peer];
        if (!highlighted_.isEmpty() && peer.peerId == highlighted_) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(dot.centre, dot.radius + 4.0, dot.radius + 4.0);
        }
        painter.setPen(peer.self ? QPen(kSelfOutline, 2.0) : QPen(Qt::white, 1.2));
        painter.setBrush(PeerRole::colour(peer.role));
        painter.drawEllipse(dot.centre, dot.radius, dot.radius);
    }
    paintLegend(painter, map);
}

void WorldMapView::paintLegend(QPainter& painter, const QRectF& map) const {
    const QFontMetricsF metrics(font());
    const double line = metrics.height() + 3.0;
    QStringList labels;
    for (const QString& role : PeerRole::known())
        labels << PeerRole::name(role);
    labels << tr("this computer");
    double textWidth = 0;
    for (const QString& label : labels)
        textWidth = std::max(textWidth, metrics.horizontalAdvance(label));
    const double padding = 6.0;
    const double swatch = 2.0 * kSelfDotRadius + 10.0;
    const QSizeF size(padding * 2 + swatch + textWidth, padding * 2 + line * labels.size());
    // Bottom left, over the South Pacific where no country is, when it covers no more than that ocean;
    // on a map too small for it, under the map where the widget leaves room, or over it where not.
    QRectF box(QPointF(map.left() + 8.0, map.bottom() - 8.0 - size.height()), size);
    const bool fitsOcean = size.height() <= 0.45 * map.height() && size.width() <= 0.25 * map.width();
    if (!fitsOcean && height() - map.bottom() >= size.height() + 8.0)
        box.moveTopLeft(QPointF(map.left() + 8.0, map.bottom() + 4.0));

    painter.setPen(QPen(QColor(0, 0, 0, 60), 1.0));
    painter.setBrush(QColor(255, 255, 255, 225));
    painter.drawRoundedRect(box, 4, 4);
    for (qsizetype i = 0; i < labels.size(); ++i) {
        const bool self = i == labels.size() - 1;
        const double y = box.top() + padding + line * static_cast<double>(i);
        const QPointF centre(box.left() + padding + swatch / 2.0, y + line / 2.0);
        const QString role = self ? QStringLiteral("node") : PeerRole::known().at(i);
        painter.setPen(self ? QPen(kSelfOutline, 2.0) : QPen(Qt::white, 1.2));
        painter.setBrush(PeerRole::colour(role));
        const double radius = self ? kSelfDotRadius : kDotRadius;
        painter.drawEllipse(centre, radius, radius);
        painter.setPen(QColor(0x20, 0x20, 0x20));
        painter.drawText(QRectF(box.left() + padding + swatch, y, textWidth + 1.0, line),
                         Qt::AlignLeft | Qt::AlignVCenter, labels[i]);
    }
}

void WorldMapView::updateDescription() {
    setAccessibleDescription(
        tr("Peers placed on the map by country: %1").arg(Figures::count(drawnPeerCount())));
}

QString WorldMapView::latencyText(const engine::PeerSighting& peer) {
    if (!peer.answers)
        return tr("no answer");
    return peer.latencyMs >= 0.0 ? tr("%1 ms").arg(Figures::milliseconds(peer.latencyMs))
                                 : tr("not measured");
}

} // namespace sahaj::ui
