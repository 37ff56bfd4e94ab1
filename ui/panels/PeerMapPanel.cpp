#include "ui/panels/PeerMapPanel.h"

#include "ui/format/Figures.h"
#include "ui/widgets/PeerRole.h"
#include "ui/widgets/WorldMapView.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sahaj::ui {

namespace {

constexpr int kPeerIdRole = Qt::UserRole;

// The role's dot as the map draws it, so that a row and its dot are matched at a glance.
QIcon roleIcon(const QString& role) {
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(PeerRole::colour(role));
    painter.drawEllipse(QRectF(1, 1, 10, 10));
    return QIcon(pixmap);
}

} // namespace

PeerMapPanel::PeerMapPanel(engine::EngineFacade& engine, QWidget* parent)
    : QWidget(parent), engine_(engine), map_(new WorldMapView(this)), list_(new QTreeWidget(this)),
      unplaced_(new QLabel(this)), splitter_(new QSplitter(Qt::Vertical, this)) {
    list_->setObjectName(QStringLiteral("peerList"));
    list_->setAccessibleName(tr("Peers of the collaboration"));
    list_->setColumnCount(ColumnCount);
    list_->setHeaderLabels({tr("Peer"), tr("Role"), tr("Country"), tr("Speed"), tr("Latency"), tr("Epoch")});
    list_->setRootIsDecorated(false);
    list_->setUniformRowHeights(true);
    list_->setAllColumnsShowFocus(true);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    list_->header()->setStretchLastSection(true);

    unplaced_->setObjectName(QStringLiteral("unplacedPeers"));
    unplaced_->setWordWrap(true);

    auto* mapSide = new QWidget(this);
    auto* mapLayout = new QVBoxLayout(mapSide);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->addWidget(map_, 1);
    mapLayout->addWidget(unplaced_);

    splitter_->addWidget(mapSide);
    splitter_->addWidget(list_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    splitter_->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter_);

    connect(list_, &QTreeWidget::itemSelectionChanged, this, &PeerMapPanel::followSelection);
    connect(map_, &WorldMapView::peerClicked, this, &PeerMapPanel::selectPeer);
    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &PeerMapPanel::render);
    render();
}

Qt::Orientation PeerMapPanel::arrangement() const {
    return splitter_->orientation();
}

void PeerMapPanel::resizeEvent(QResizeEvent* event) {
    // Beside: the map takes 3/5 of the width, so the panel must be about 3/5 x 2.5 = 1.5 times as wide as
    // high before the map fills its height; a little wider than that leaves the list room to read.
    const Qt::Orientation wanted = width() >= 2 * height() ? Qt::Horizontal : Qt::Vertical;
    if (splitter_->orientation() != wanted)
        splitter_->setOrientation(wanted);
    QWidget::resizeEvent(event);
}

void PeerMapPanel::render() {
    const std::shared_ptr<const engine::EngineSnapshot> snapshot = engine_.snapshot();
    const std::vector<engine::PeerSighting>& peers = snapshot->peers;
    map_->setPeers(peers);

    // Rows are updated in place, not rebuilt, so that the selection and the scroll position survive the
    // snapshot that comes every second.
    const QSignalBlocker blocker(list_);
    const QString selected = map_->highlightedPeer();
    while (list_->topLevelItemCount() > static_cast<int>(peers.size()))
        delete list_->takeTopLevelItem(list_->topLevelItemCount() - 1);
    while (list_->topLevelItemCount() < static_cast<int>(peers.size()))
        list_->addTopLevelItem(new QTreeWidgetItem);
    QTreeWidgetItem* selectedItem = nullptr;
    for (std::size_t i = 0; i < peers.size(); ++i) {
        const engine::PeerSighting& peer = peers[i];
        QTreeWidgetItem* item = list_->topLevelItem(static_cast<int>(i));
        const QString id = Figures::shortPeerId(peer.peerId);
        item->setText(IdColumn, peer.self ? tr("%1 (you)").arg(id) : id);
        item->setData(IdColumn, kPeerIdRole, peer.peerId);
        item->setToolTip(IdColumn, peer.peerId.left(128));
        item->setText(RoleColumn, PeerRole::name(peer.role));
        item->setIcon(RoleColumn, roleIcon(peer.role));
        item->setText(CountryColumn, map_->countryName(peer.country));
        item->setText(SpeedColumn, Figures::mbps(peer.mbps));
        item->setText(LatencyColumn, WorldMapView::latencyText(peer));
        // A peer that does not answer is shown greyed: most likely gone, its record not yet expired.
        const QBrush text = peer.answers ? list_->palette().text() : list_->palette().placeholderText();
        for (int column = 0; column < list_->columnCount(); ++column)
            item->setForeground(column, text);
        item->setText(EpochColumn, Figures::count(static_cast<double>(peer.epoch)));
        for (int column : {SpeedColumn, LatencyColumn, EpochColumn})
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        QFont font = item->font(IdColumn);
        font.setBold(peer.self);
        item->setFont(IdColumn, font);
        if (!selected.isEmpty() && peer.peerId == selected)
            selectedItem = item;
    }
    list_->clearSelection();
    if (selectedItem)
        selectedItem->setSelected(true);
    else
        map_->setHighlightedPeer({});

    const int unplaced = static_cast<int>(peers.size()) - map_->drawnPeerCount();
    unplaced_->setVisible(unplaced > 0);
    unplaced_->setText(tr("Listed but not on the map: %1 (no country shared, or one too small for this map)")
                           .arg(Figures::count(unplaced)));
}

void PeerMapPanel::selectPeer(const QString& peerId) {
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = list_->topLevelItem(i);
        if (item->data(IdColumn, kPeerIdRole).toString() == peerId) {
            list_->setCurrentItem(item);
            list_->scrollToItem(item);
            return;
        }
    }
}

void PeerMapPanel::followSelection() {
    const QList<QTreeWidgetItem*> selected = list_->selectedItems();
    map_->setHighlightedPeer(selected.isEmpty() ? QString()
                                                : selected.first()->data(IdColumn, kPeerIdRole).toString());
}

} // namespace sahaj::ui
