// The peer map panel: the world map resource loads and a malformed one is refused with a reason; peers
// are drawn inside the country they shared, at any size, coloured by role, fanned out when they share a
// country; the hover text names the peer; the list holds every peer, those not drawn included; and a
// selected row is ringed on the map.
#include "tests/gui/support/RecordingEngine.h"
#include "tests/gui/support/WidgetGrab.h"
#include "ui/format/Figures.h"
#include "ui/panels/PeerMapPanel.h"
#include "ui/widgets/PeerRole.h"
#include "ui/widgets/WorldMap.h"
#include "ui/widgets/WorldMapView.h"

#include <QDateTime>
#include <QFile>
#include <QHelpEvent>
#include <QLabel>
#include <QTemporaryDir>
#include <QToolTip>
#include <QTreeWidget>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace sahaj::testing;
using sahaj::engine::EngineSnapshot;
using sahaj::engine::PeerSighting;
using sahaj::ui::Figures;
using sahaj::ui::PeerMapPanel;
using sahaj::ui::PeerRole;
using sahaj::ui::WorldMap;
using sahaj::ui::WorldMapView;

namespace {

const QString kHeader = QStringLiteral(R"({"format":"sahaj-world-map","version":1,"countries":[)");
const QString kBangladesh = QStringLiteral(
    R"({"code":"BD","name":"Bangladesh","label":[90.27,23.84],"rings":[[[88,21],[92.6,21],[92.6,26.6],[88,26.6],[88,21]]]})");

QString peerId(char first) {
    return QString(QLatin1Char(first)) + QString(63, QLatin1Char('0'));
}

bool sameColour(QRgb pixel, const QColor& colour) {
    const QColor seen = QColor::fromRgb(pixel);
    return std::abs(seen.red() - colour.red()) <= 2 && std::abs(seen.green() - colour.green()) <= 2 &&
           std::abs(seen.blue() - colour.blue()) <= 2;
}

// The country's bounding box in widget pixels.
QRectF projectedBounds(const WorldMapView& view, const WorldMap::Country& country) {
    const QRectF b = country.bounds;
    return QRectF(view.project(b.left(), b.bottom()), view.project(b.right(), b.top())).normalized();
}

// A peer map panel, 1000 by 700, over an engine that showed `snapshot` before the panel was built.
struct PanelOnEngine {
    PanelOnEngine(const QString& ledgerPath, const EngineSnapshot& snapshot) : engine(ledgerPath) {
        engine.show(snapshot);
        panel = std::make_unique<PeerMapPanel>(engine);
        panel->resize(1000, 700);
    }

    // Shows the panel as in the window; false when it was never exposed.
    bool expose() {
        panel->show();
        return QTest::qWaitForWindowExposed(panel.get());
    }

    RecordingEngine engine;
    std::unique_ptr<PeerMapPanel> panel;
};

} // namespace

class TestPeerMapPanel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    qint64 now_ = QDateTime::currentMSecsSinceEpoch();

    QString ledgerPath() const { return dir_.filePath(QStringLiteral("ledger.sqlite")); }

    QString writeMap(const QString& name, const QString& content) {
        const QString path = dir_.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        file.write(content.toUtf8());
        return path;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void loadsTheBuiltInMap() {
        const WorldMap& map = WorldMap::builtIn();
        QVERIFY2(map.isValid(), qPrintable(map.error()));
        QVERIFY2(map.countries().size() >= 170, qPrintable(QString::number(map.countries().size())));
        const WorldMap::Country* bangladesh = map.find(QStringLiteral("bd"));
        QVERIFY(bangladesh);
        QCOMPARE(bangladesh->code, QStringLiteral("BD"));
        QCOMPARE(bangladesh->name, QStringLiteral("Bangladesh"));
        QVERIFY(bangladesh->bounds.contains(bangladesh->label));
        QVERIFY(bangladesh->outline.contains(bangladesh->label));
        QCOMPARE(bangladesh->outline.fillRule(), Qt::OddEvenFill);
        QVERIFY(map.find(QStringLiteral("IN")) && map.find(QStringLiteral("DE")));
        QVERIFY(!map.find(QString()));
        QVERIFY(!map.find(QStringLiteral("ZZ")));
        // Parsed once: the same object every time.
        QCOMPARE(&WorldMap::builtIn(), &map);
    }

    void loadsAWellFormedFile() {
        const QString path =
            writeMap(QStringLiteral("one.json"), kHeader + kBangladesh + QStringLiteral("]}"));
        const WorldMap map = WorldMap::load(path);
        QVERIFY2(map.isValid(), qPrintable(map.error()));
        QCOMPARE(map.countries().size(), std::size_t{1});
        QCOMPARE(map.countries().front().bounds, QRectF(QPointF(88, 21), QPointF(92.6, 26.6)));
    }

    void refusesMalformedFiles_data() {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("reason");
        QTest::newRow("truncated") << kHeader + kBangladesh.left(40) << "not valid JSON";
        QTest::newRow("not an object") << QStringLiteral("[1,2,3]") << "sahaj-world-map format";
        QTest::newRow("other format")
            << QStringLiteral(R"({"format":"topojson","countries":[]})") << "sahaj-world-map format";
        QTest::newRow("no countries") << kHeader + QStringLiteral("]}") << "lists no countries";
        QTest::newRow("bad code")
            << kHeader + QString(kBangladesh).replace(QStringLiteral("\"BD\""), QStringLiteral("\"bd1\"")) +
                   QStringLiteral("]}")
            << "no ISO 3166 alpha-2 code";
        QTest::newRow("twice") << kHeader + kBangladesh + QLatin1Char(',') + kBangladesh +
                                      QStringLiteral("]}")
                               << "listed twice";
        QTest::newRow("no label")
            << kHeader +
                   QString(kBangladesh).replace(QStringLiteral("[90.27,23.84]"), QStringLiteral("\"x\"")) +
                   QStringLiteral("]}")
            << "no label point";
        QTest::newRow("short ring")
            << kHeader +
                   QString(kBangladesh).replace(QStringLiteral(",[88,26.6],[88,21]]"), QStringLiteral("]")) +
                   QStringLiteral("]}")
            << "fewer than four points";
        QTest::newRow("point off the globe")
            << kHeader +
                   QString(kBangladesh).replace(QStringLiteral("[92.6,21]"), QStringLiteral("[192.6,21]")) +
                   QStringLiteral("]}")
            << "not [longitude, latitude]";
    }

    void refusesMalformedFiles() {
        QFETCH(QString, content);
        QFETCH(QString, reason);
        const QString path = writeMap(QStringLiteral("bad.json"), content);
        const WorldMap map = WorldMap::load(path);
        QVERIFY(!map.isValid());
        QVERIFY(map.countries().empty());
        QVERIFY2(map.error().contains(reason) && map.error().contains(path), qPrintable(map.error()));
    }

    void refusesAMissingFile() {
        const QString path = dir_.filePath(QStringLiteral("absent.json"));
        const WorldMap map = WorldMap::load(path);
        QVERIFY(!map.isValid());
        QVERIFY2(map.error().contains(QStringLiteral("cannot be read")) && map.error().contains(path),
                 qPrintable(map.error()));
        // The view shows the reason instead of the map, and draws no peer.
        WorldMapView view(map);
        view.setPeers(busySnapshot(now_).peers);
        view.resize(600, 300);
        QCOMPARE(view.drawnPeerCount(), 0);
        QVERIFY(!view.grab().isNull());
    }

    void placesPeersInTheirCountries_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("600x300") << QSize(600, 300);
        QTest::newRow("1200x600") << QSize(1200, 600);
        QTest::newRow("tall 400x700") << QSize(400, 700);
    }

    void placesPeersInTheirCountries() {
        QFETCH(QSize, size);
        const EngineSnapshot snapshot = busySnapshot(now_);
        WorldMapView view;
        view.setPeers(snapshot.peers);
        view.resize(size);
        QVERIFY(!view.accessibleName().isEmpty());
        QVERIFY(view.sizeHint().isValid());

        // The map keeps its aspect ratio (360 by kNorth - kSouth degrees) and fits the widget.
        const QRectF map = view.mapRect();
        QVERIFY(QRectF(QPointF(0, 0), QSizeF(size)).adjusted(-0.5, -0.5, 0.5, 0.5).contains(map));
        QCOMPARE(qRound(map.width() / map.height() * 1000),
                 qRound(360.0 / (WorldMapView::kNorth - WorldMapView::kSouth) * 1000));

        const QImage image = view.grab().toImage();
        QCOMPARE(image.size(), size);
        QCOMPARE(view.drawnPeerCount(), 3);
        for (const PeerSighting& peer : snapshot.peers) {
            const std::optional<QPointF> at = view.peerPosition(peer.peerId);
            if (peer.country.isEmpty()) {
                QVERIFY(!at);
                continue;
            }
            QVERIFY(at);
            const WorldMap::Country* country = WorldMap::builtIn().find(peer.country);
            QVERIFY(country);
            const QPointF label = view.project(country->label.x(), country->label.y());
            QVERIFY(std::hypot(at->x() - label.x(), at->y() - label.y()) < 0.01);
            QVERIFY2(projectedBounds(view, *country).contains(*at), qPrintable(peer.country));
            // The dot is there, in its role's colour.
            QVERIFY2(
                sameColour(image.pixel(at->toPoint()), PeerRole::colour(peer.role)),
                qPrintable(peer.country + QStringLiteral(" ") + QColor(image.pixel(at->toPoint())).name()));
            QCOMPARE(view.peerAt(*at), peer.peerId);
        }

        // Land and sea differ: Australia's middle against the open Pacific and South Atlantic.
        const WorldMap::Country* australia = WorldMap::builtIn().find(QStringLiteral("AU"));
        QVERIFY(australia);
        const QRgb land = image.pixel(view.project(australia->label.x(), australia->label.y()).toPoint());
        const QRgb pacific = image.pixel(view.project(-150, 35).toPoint());
        const QRgb atlantic = image.pixel(view.project(-25, -25).toPoint());
        QCOMPARE(pacific, atlantic);
        QVERIFY(land != pacific);
        QVERIFY(WidgetGrab::saveIfRequested(
            image, QStringLiteral("peer-map-%1x%2.png").arg(size.width()).arg(size.height())));
    }

    void fansOutPeersOfOneCountry() {
        std::vector<PeerSighting> peers;
        for (char c : {'a', 'b', 'c', 'd', 'e'})
            peers.push_back(
                {peerId(c), QStringLiteral("node"), QStringLiteral("DE"), 50.0, 10.0, 3, c == 'a'});
        WorldMapView view;
        view.setPeers(peers);
        view.resize(1000, 500);
        const WorldMap::Country* germany = WorldMap::builtIn().find(QStringLiteral("DE"));
        const QPointF label = view.project(germany->label.x(), germany->label.y());
        std::vector<QPointF> positions;
        for (const PeerSighting& peer : peers) {
            const std::optional<QPointF> at = view.peerPosition(peer.peerId);
            QVERIFY(at);
            // A small circle around the label point.
            QVERIFY(std::hypot(at->x() - label.x(), at->y() - label.y()) < 25.0);
            positions.push_back(*at);
        }
        for (std::size_t i = 0; i < positions.size(); ++i)
            for (std::size_t j = i + 1; j < positions.size(); ++j)
                QVERIFY(std::hypot(positions[i].x() - positions[j].x(),
                                   positions[i].y() - positions[j].y()) >= 2 * WorldMapView::kSelfDotRadius);
    }

    void tellsWhoIsUnderTheMouse() {
        const EngineSnapshot snapshot = busySnapshot(now_);
        PanelOnEngine shown(ledgerPath(), snapshot);
        QVERIFY(shown.expose());
        WorldMapView* view = shown.panel->mapView();

        const QPointF india = *view->peerPosition(snapshot.peers[1].peerId);
        const QString text = view->toolTipAt(india + QPointF(1, 1));
        QVERIFY2(text.contains(Figures::shortPeerId(snapshot.peers[1].peerId)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("node")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("India")), qPrintable(text));
        QVERIFY2(text.contains(Figures::mbps(480.0)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("%1 ms").arg(Figures::decimal(38.5, 0))), qPrintable(text));

        const QString self = view->toolTipAt(*view->peerPosition(snapshot.peerId));
        QVERIFY2(self.contains(QStringLiteral("this computer")) &&
                     self.contains(QStringLiteral("Bangladesh")) &&
                     self.contains(QStringLiteral("not measured")),
                 qPrintable(self));
        QVERIFY(view->toolTipAt(view->project(-140, 5)).isEmpty());

        // The same text through a real help event.
        const QPoint at = india.toPoint();
        QHelpEvent help(QEvent::ToolTip, at, view->mapToGlobal(at));
        QApplication::sendEvent(view, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("India")), qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    // A peer whose endpoint no longer answers (killed, its record not yet expired) says so and is greyed,
    // instead of its last round trip.
    void aPeerThatDoesNotAnswerSaysSo() {
        EngineSnapshot snapshot = busySnapshot(now_);
        snapshot.peers[1].answers = false;
        snapshot.peers[1].latencyMs = -1.0;
        PanelOnEngine shown(ledgerPath(), snapshot);
        const QTreeWidget* list = shown.panel->peerList();
        const QTreeWidgetItem* silent = list->topLevelItem(1);
        QCOMPARE(silent->text(PeerMapPanel::LatencyColumn), QStringLiteral("no answer"));
        QVERIFY(silent->foreground(PeerMapPanel::IdColumn).color() !=
                list->topLevelItem(2)->foreground(PeerMapPanel::IdColumn).color());
        QCOMPARE(WorldMapView::latencyText(snapshot.peers[1]), QStringLiteral("no answer"));
    }

    void listsEveryPeer() {
        const EngineSnapshot snapshot = busySnapshot(now_);
        PanelOnEngine shown(ledgerPath(), snapshot);
        QTreeWidget* list = shown.panel->peerList();
        QVERIFY(!list->accessibleName().isEmpty());
        QCOMPARE(list->topLevelItemCount(), static_cast<int>(snapshot.peers.size()));

        const QTreeWidgetItem* india = list->topLevelItem(1);
        QCOMPARE(india->text(PeerMapPanel::IdColumn), Figures::shortPeerId(snapshot.peers[1].peerId));
        QCOMPARE(india->text(PeerMapPanel::RoleColumn), QStringLiteral("node"));
        QCOMPARE(india->text(PeerMapPanel::CountryColumn), QStringLiteral("India"));
        QCOMPARE(india->text(PeerMapPanel::SpeedColumn), Figures::mbps(480.0));
        QCOMPARE(india->text(PeerMapPanel::LatencyColumn),
                 QStringLiteral("%1 ms").arg(Figures::decimal(38.5, 0)));
        QCOMPARE(india->text(PeerMapPanel::EpochColumn), Figures::count(41));
        QVERIFY(list->topLevelItem(0)->text(PeerMapPanel::IdColumn).contains(QStringLiteral("you")));
        QCOMPARE(list->topLevelItem(2)->text(PeerMapPanel::RoleColumn), QStringLiteral("client"));

        // The coordinator shared no country: listed, not drawn, and said so under the map.
        const QTreeWidgetItem* coordinator = list->topLevelItem(3);
        QCOMPARE(coordinator->text(PeerMapPanel::RoleColumn), QStringLiteral("coordinator"));
        QCOMPARE(coordinator->text(PeerMapPanel::CountryColumn), QStringLiteral("not shared"));
        QVERIFY(!shown.panel->mapView()->peerPosition(snapshot.peers[3].peerId));
        QCOMPARE(shown.panel->mapView()->drawnPeerCount(), 3);
        const auto* unplaced = shown.panel->findChild<QLabel*>(QStringLiteral("unplacedPeers"));
        QVERIFY(unplaced && !unplaced->isHidden());
        QVERIFY2(unplaced->text().contains(QStringLiteral("not on the map: 1 ")),
                 qPrintable(unplaced->text()));

        // Fewer peers in the next snapshot: fewer rows.
        EngineSnapshot fewer = snapshot;
        fewer.peers.resize(2);
        shown.engine.show(fewer);
        QCOMPARE(list->topLevelItemCount(), 2);
        QVERIFY(unplaced->isHidden());

        if (WidgetGrab::requested()) {
            shown.engine.show(snapshot);
            QVERIFY(
                WidgetGrab::saveIfRequested(shown.panel->grab().toImage(), QStringLiteral("peer-map.png")));
        }
    }

    void listsPeersTheMapCannotPlace() {
        EngineSnapshot snapshot = busySnapshot(now_);
        // Singapore is too small for the 1:110m map; a role and a country from a peer's record that mean
        // nothing are shown as such, not as markup.
        snapshot.peers.push_back(
            {peerId('e'), QStringLiteral("node"), QStringLiteral("SG"), 10.0, 5.0, 41, false});
        snapshot.peers.push_back(
            {peerId('f'), QStringLiteral("<b>boss</b>"), QStringLiteral("<i"), 10.0, 5.0, 41, false});
        PanelOnEngine shown(ledgerPath(), snapshot);
        QCOMPARE(shown.panel->peerList()->topLevelItemCount(), 6);
        QCOMPARE(shown.panel->mapView()->drawnPeerCount(), 3);
        QCOMPARE(shown.panel->peerList()->topLevelItem(4)->text(PeerMapPanel::CountryColumn),
                 QStringLiteral("Singapore"));
        QCOMPARE(shown.panel->peerList()->topLevelItem(5)->text(PeerMapPanel::RoleColumn),
                 QStringLiteral("other"));
        QVERIFY(!shown.panel->grab().isNull());
    }

    void ringsTheSelectedPeer() {
        const EngineSnapshot snapshot = busySnapshot(now_);
        PanelOnEngine shown(ledgerPath(), snapshot);
        QVERIFY(shown.expose());
        WorldMapView* view = shown.panel->mapView();
        QTreeWidget* list = shown.panel->peerList();
        QVERIFY(view->highlightedPeer().isEmpty());
        // An ordinary window: the list under the map; a wide one: beside it.
        QCOMPARE(shown.panel->arrangement(), Qt::Vertical);
        shown.panel->resize(1600, 600);
        QCOMPARE(shown.panel->arrangement(), Qt::Horizontal);
        shown.panel->resize(1000, 700);
        QCOMPARE(shown.panel->arrangement(), Qt::Vertical);

        list->setCurrentItem(list->topLevelItem(2));
        QCOMPARE(view->highlightedPeer(), snapshot.peers[2].peerId);
        const QPointF germany = *view->peerPosition(snapshot.peers[2].peerId);
        const QImage image = view->grab().toImage();
        const QPoint ring = (germany + QPointF(WorldMapView::kDotRadius + 4.0, 0)).toPoint();
        QVERIFY2(sameColour(image.pixel(ring), view->palette().color(QPalette::Highlight)),
                 qPrintable(QColor(image.pixel(ring)).name()));

        // The next snapshot keeps the selection.
        shown.engine.show(snapshot);
        QCOMPARE(view->highlightedPeer(), snapshot.peers[2].peerId);
        QCOMPARE(list->selectedItems().size(), 1);

        // Clicking a dot selects its row.
        QTest::mouseClick(view, Qt::LeftButton, {}, view->peerPosition(snapshot.peers[1].peerId)->toPoint());
        QCOMPARE(list->currentItem(), list->topLevelItem(1));
        QCOMPARE(view->highlightedPeer(), snapshot.peers[1].peerId);

        // A selected peer that leaves is no longer ringed.
        EngineSnapshot fewer = snapshot;
        fewer.peers.resize(1);
        shown.engine.show(fewer);
        QVERIFY(view->highlightedPeer().isEmpty());
        QVERIFY(list->selectedItems().isEmpty());
    }
};

QTEST_MAIN(TestPeerMapPanel)
#include "tst_peer_map_panel.moc"
