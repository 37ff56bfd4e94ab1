#include "ui/widgets/WeeklyScheduleGrid.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>

namespace sahaj::ui {

namespace {

constexpr int kDays = 7;
constexpr int kHours = 24;
constexpr int kCellWidth = 26;
constexpr int kCellHeight = 24;
constexpr int kAllowedRole = Qt::UserRole + 1;

const QColor kAllowedColour(0x4c, 0xaf, 0x50);
const QColor kAllowedDisabledColour(0xb5, 0xcf, 0xb6); // the schedule is off: shown, but muted

} // namespace

WeeklyScheduleGrid::WeeklyScheduleGrid(QWidget* parent) : QTableWidget(kDays, kHours, parent) {
    setAccessibleName(tr("Weekly schedule"));
    setAccessibleDescription(tr("Hours of the week in which Sahaj may compute. "
                                "Space toggles the selected "
                                "hours."));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setTabKeyNavigation(false); // Tab leaves the grid, as in any other field
    setWordWrap(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    horizontalHeader()->setDefaultSectionSize(kCellWidth);
    horizontalHeader()->setMinimumSectionSize(kCellWidth);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(kCellHeight);
    // The whole week is in view at once: no scrolling to find Sunday evening.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);

    const QLocale locale;
    for (int day = 0; day < kDays; ++day) {
        // QLocale counts days from 1 = Monday, the settings from 0 = Monday.
        auto* header = new QTableWidgetItem(locale.dayName(day + 1, QLocale::ShortFormat));
        header->setData(Qt::AccessibleTextRole, locale.dayName(day + 1, QLocale::LongFormat));
        setVerticalHeaderItem(day, header);
    }
    for (int hour = 0; hour < kHours; ++hour)
        setHorizontalHeaderItem(hour, new QTableWidgetItem(locale.toString(hour)));
    for (int day = 0; day < kDays; ++day)
        for (int hour = 0; hour < kHours; ++hour) {
            auto* cell = new QTableWidgetItem;
            cell->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            cell->setTextAlignment(Qt::AlignCenter);
            setItem(day, hour, cell);
            setCell(day, hour, true);
        }
    setCurrentCell(0, 0, QItemSelectionModel::NoUpdate);
}

WeeklyScheduleGrid::WeeklyHours WeeklyScheduleGrid::hours() const {
    WeeklyHours result;
    for (int day = 0; day < kDays; ++day)
        for (int hour = 0; hour < kHours; ++hour)
            result.set(static_cast<std::size_t>(day * kHours + hour), isAllowed(day, hour));
    return result;
}

void WeeklyScheduleGrid::setHours(const WeeklyHours& hours) {
    for (int day = 0; day < kDays; ++day)
        for (int hour = 0; hour < kHours; ++hour)
            setCell(day, hour, hours.test(static_cast<std::size_t>(day * kHours + hour)));
    Q_EMIT hoursChanged();
}

bool WeeklyScheduleGrid::isAllowed(int day, int hour) const {
    const QTableWidgetItem* cell = item(day, hour);
    return cell != nullptr && cell->data(kAllowedRole).toBool();
}

void WeeklyScheduleGrid::setCell(int day, int hour, bool allowed) {
    QTableWidgetItem* cell = item(day, hour);
    if (cell == nullptr)
        return;
    const QLocale locale;
    cell->setData(kAllowedRole, allowed);
    // A mark as well as the colour, so that the state shows on a selected cell and without colour vision.
    cell->setText(allowed ? QStringLiteral("✓") : QString());
    cell->setBackground(allowed ? QBrush(isEnabled() ? kAllowedColour : kAllowedDisabledColour) : QBrush());
    cell->setForeground(allowed ? QBrush(Qt::white) : QBrush());
    const QString when = tr("%1, %2:00 to %3:00")
                             .arg(locale.dayName(day + 1, QLocale::LongFormat))
                             .arg(hour, 2, 10, QLatin1Char('0'))
                             .arg(hour + 1, 2, 10, QLatin1Char('0'));
    const QString what = allowed ? tr("%1: computing allowed").arg(when) : tr("%1: paused").arg(when);
    cell->setData(Qt::AccessibleTextRole, what);
    cell->setToolTip(what);
}

void WeeklyScheduleGrid::setSelectedAllowed(bool allowed) {
    QList<QTableWidgetItem*> cells = selectedItems();
    if (cells.isEmpty() && currentItem() != nullptr)
        cells << currentItem();
    for (QTableWidgetItem* cell : cells)
        setCell(cell->row(), cell->column(), allowed);
    if (!cells.isEmpty())
        Q_EMIT hoursChanged();
}

QSize WeeklyScheduleGrid::sizeHint() const {
    const int width = verticalHeader()->sizeHint().width() + kHours * kCellWidth + 2 * frameWidth();
    const int height = horizontalHeader()->sizeHint().height() + kDays * kCellHeight + 2 * frameWidth();
    return {width, height};
}

QSize WeeklyScheduleGrid::minimumSizeHint() const {
    return sizeHint();
}

void WeeklyScheduleGrid::changeEvent(QEvent* event) {
    QTableWidget::changeEvent(event);
    if (event->type() != QEvent::EnabledChange)
        return;
    for (int day = 0; day < kDays; ++day)
        for (int hour = 0; hour < kHours; ++hour)
            setCell(day, hour, isAllowed(day, hour));
}

void WeeklyScheduleGrid::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space || event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        const QTableWidgetItem* current = currentItem();
        // The selection takes the opposite of the current cell's value: one key press turns a mixed selection
        // all on or all off.
        setSelectedAllowed(current == nullptr || !current->data(kAllowedRole).toBool());
        event->accept();
        return;
    }
    QTableWidget::keyPressEvent(event);
}

void WeeklyScheduleGrid::mousePressEvent(QMouseEvent* event) {
    QTableWidget::mousePressEvent(event);
    const QModelIndex index = indexAt(event->position().toPoint());
    if (event->button() != Qt::LeftButton || !index.isValid())
        return;
    painting_ = true;
    paintValue_ = !isAllowed(index.row(), index.column());
    setCell(index.row(), index.column(), paintValue_);
    Q_EMIT hoursChanged();
}

void WeeklyScheduleGrid::mouseMoveEvent(QMouseEvent* event) {
    QTableWidget::mouseMoveEvent(event);
    const QModelIndex index = indexAt(event->position().toPoint());
    if (!painting_ || !index.isValid() || isAllowed(index.row(), index.column()) == paintValue_)
        return;
    setCell(index.row(), index.column(), paintValue_);
    Q_EMIT hoursChanged();
}

void WeeklyScheduleGrid::mouseReleaseEvent(QMouseEvent* event) {
    painting_ = false;
    QTableWidget::mouseReleaseEvent(event);
}

} // namespace sahaj::ui
