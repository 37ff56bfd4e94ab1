#pragma once

#include "core/engine/EngineSnapshot.h"
#include "ui/widgets/WorldMap.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace sahaj::ui {

// The peer map: the world's countries (equirectangular, aspect ratio kept, sea light, land grey) with a
// dot per peer at the label point of the country it chose to share, coloured by role; several peers of
// one country are fanned out in a small circle. This peer is drawn larger, with an outline. Peers with no
// country, or one too small for the map, are not drawn (the panel lists them). Hovering a dot shows the
// peer's id, role, country, speed and latency; clicking it reports the peer (peerClicked).
class WorldMapView : public QWidget {
    Q_OBJECT

public:
    // The latitudes shown: the Arctic islands down to Cape Horn; Antarctica holds no peers.
    static constexpr double kNorth = 84.0;
    static constexpr double kSouth = -58.0;
    static constexpr double kDotRadius = 5.0;
    static constexpr double kSelfDotRadius = 7.5;

    // "12 ms", "no answer" (its endpoint refused or did not answer the last dial: gone, or unreachable from
    // here), or "not measured": the map's tooltip and the peers table say the same.
    static QString latencyText(const engine::PeerSighting& peer);

    // Draws `map` (WorldMap::builtIn() in the app), which must outlive the view.
    explicit WorldMapView(const WorldMap& map, QWidget* parent = nullptr);
    explicit WorldMapView(QWidget* parent = nullptr) : WorldMapView(WorldMap::builtIn(), parent) {}

    void setPeers(std::vector<engine::PeerSighting> peers);
    const std::vector<engine::PeerSighting>& peers() const { return peers_; }
    // Rings the peer's dot; an empty id (or one not drawn) rings none.
    void setHighlightedPeer(const QString& peerId);
    const QString& highlightedPeer() const { return highlighted_; }

    // Where the map lies in the widget (centred, 360:(kNorth - kSouth) whatever the widget's shape).
    QRectF mapRect() const;
    // Degrees to widget pixels.
    QPointF project(double longitude, double latitude) const;
    // The centre of the peer's dot in widget pixels; nothing when the peer is not drawn.
    std::optional<QPointF> peerPosition(const QString& peerId) const;
    int drawnPeerCount() const;
    // The peer whose dot is under `pos` (the topmost), empty when none.
    QString peerAt(QPointF pos) const;
    // The hover text for `pos` (plain text, one fact a line), empty when no dot is there.
    QString toolTipAt(QPointF pos) const;
    // The country's name in the user's language, the map's English name when the locale has none.
    QString countryName(const QString& code) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void peerClicked(const QString& peerId);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    struct Dot {
        std::size_t peer; // index into peers_
        QPointF centre;
        double radius;
    };
    // Computed from the widget's current size: cheap for the few hundred peers a run has.
    std::vector<Dot> dots() const;
    const Dot* dotAt(const std::vector<Dot>& dots, QPointF pos) const;
    void paintLegend(QPainter& painter, const QRectF& map) const;
    void updateDescription();

    const WorldMap& map_;
    std::vector<engine::PeerSighting> peers_;
    QString highlighted_;
};

} // namespace sahaj::ui
