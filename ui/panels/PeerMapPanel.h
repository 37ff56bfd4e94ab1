#pragma once

#include "core/engine/EngineFacade.h"

#include <QWidget>

class QLabel;
class QSplitter;
class QTreeWidget;

namespace sahaj::ui {

class WorldMapView;

// The peer map panel: the peers of the collaboration on a world map by the country they chose to share,
// and beside it the list of all of them (id, role, country, speed, latency, epoch), peers without a
// country included. Selecting a row rings the peer on the map; clicking a dot selects its row.
// The list sits beside the map when the panel is wide enough for both, under it otherwise: the map is
// 2.5 times as wide as it is high, and beside a list in a window of ordinary shape it would be a strip.
class PeerMapPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { IdColumn, RoleColumn, CountryColumn, SpeedColumn, LatencyColumn, EpochColumn, ColumnCount };

    explicit PeerMapPanel(engine::EngineFacade& engine, QWidget* parent = nullptr);

    WorldMapView* mapView() const { return map_; }
    QTreeWidget* peerList() const { return list_; }
    // Qt::Horizontal: list beside the map; Qt::Vertical: under it.
    Qt::Orientation arrangement() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void render();
    void selectPeer(const QString& peerId);
    void followSelection();

    engine::EngineFacade& engine_;
    WorldMapView* map_;
    QTreeWidget* list_;
    QLabel* unplaced_;
    QSplitter* splitter_;
};

} // namespace sahaj::ui
