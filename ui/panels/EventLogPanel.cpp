#include "ui/panels/EventLogPanel.h"

#include "core/engine/EngineFacade.h"
#include "ui/StateText.h"

#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace sahaj::ui {

namespace {

enum Column { TimeColumn, LevelColumn, TextColumn, ColumnCount };

// The stable level name ("warning") the level filter matches, beside the translated word shown.
constexpr int kLevelNameRole = Qt::UserRole + 1;

const QString kTimeFormat = QStringLiteral("yyyy-MM-dd HH:mm:ss");

QString levelWord(engine::EngineEvent::Level level) {
    switch (level) {
    case engine::EngineEvent::Level::Info:
        return EventLogPanel::tr("Info");
    case engine::EngineEvent::Level::Warning:
        return EventLogPanel::tr("Warning");
    case engine::EngineEvent::Level::Error:
        return EventLogPanel::tr("Error");
    case engine::EngineEvent::Level::Milestone:
        return EventLogPanel::tr("Milestone");
    }
    return EventLogPanel::tr("Info");
}

QStyle::StandardPixmap levelIcon(engine::EngineEvent::Level level) {
    switch (level) {
    case engine::EngineEvent::Level::Warning:
        return QStyle::SP_MessageBoxWarning;
    case engine::EngineEvent::Level::Error:
        return QStyle::SP_MessageBoxCritical;
    case engine::EngineEvent::Level::Milestone:
        return QStyle::SP_DialogApplyButton;
    case engine::EngineEvent::Level::Info:
        break;
    }
    return QStyle::SP_MessageBoxInformation;
}

// One line per row, whatever the engine put in the text: a line break would split a row when copied.
QString shownText(const QString& text) {
    QString shown = text.size() > EventLogPanel::kMaxTextLength
                        ? text.left(EventLogPanel::kMaxTextLength) + QChar(0x2026)
                        : text;
    for (QChar& c : shown) {
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
    }
    return shown;
}

} // namespace

EventLogPanel::EventLogPanel(engine::EngineFacade& engine, QWidget* parent) : QWidget(parent) {
    setAccessibleName(tr("Event log"));

    events_ = new QStandardItemModel(0, ColumnCount, this);
    events_->setHorizontalHeaderLabels({tr("Time"), tr("Level"), tr("Event")});
    // Two filters in a chain: the level (exact, on the stable name), then the text (a substring).
    byLevel_ = new QSortFilterProxyModel(this);
    byLevel_->setSourceModel(events_);
    byLevel_->setFilterKeyColumn(LevelColumn);
    byLevel_->setFilterRole(kLevelNameRole);
    byText_ = new QSortFilterProxyModel(this);
    byText_->setSourceModel(byLevel_);
    byText_->setFilterKeyColumn(TextColumn);
    byText_->setFilterCaseSensitivity(Qt::CaseInsensitive);

    levelFilter_ = new QComboBox(this);
    levelFilter_->setObjectName(QStringLiteral("levelFilter"));
    levelFilter_->setAccessibleName(tr("Show events of level"));
    levelFilter_->addItem(tr("All levels"), QString());
    for (const auto level : {engine::EngineEvent::Level::Info, engine::EngineEvent::Level::Warning,
                             engine::EngineEvent::Level::Error, engine::EngineEvent::Level::Milestone})
        levelFilter_->addItem(levelWord(level), engine::eventLevelName(level));
    connect(levelFilter_, &QComboBox::currentIndexChanged, this, &EventLogPanel::applyLevelFilter);

    textFilter_ = new QLineEdit(this);
    textFilter_->setObjectName(QStringLiteral("textFilter"));
    textFilter_->setAccessibleName(tr("Show events containing"));
    textFilter_->setPlaceholderText(tr("Filter by text"));
    textFilter_->setClearButtonEnabled(true);
    connect(textFilter_, &QLineEdit::textChanged, byText_, &QSortFilterProxyModel::setFilterFixedString);

    auto* copyButton = new QPushButton(tr("&Copy"), this);
    copyButton->setObjectName(QStringLiteral("copyButton"));
    copyButton->setToolTip(tr("Copy the selected events, or every event shown, as text (Ctrl+C)"));
    connect(copyButton, &QPushButton::clicked, this, &EventLogPanel::copy);
    auto* clearButton = new QPushButton(tr("Cle&ar"), this);
    clearButton->setObjectName(QStringLiteral("clearButton"));
    clearButton->setToolTip(tr("Remove every event from the log"));
    connect(clearButton, &QPushButton::clicked, this, &EventLogPanel::clear);

    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("eventTable"));
    view_->setAccessibleName(tr("Events"));
    view_->setModel(byText_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setWordWrap(false);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    // Widths from the font, not from the contents: measuring 5000 rows on every event would be slow.
    const QFontMetrics metrics = view_->fontMetrics();
    view_->setColumnWidth(TimeColumn, metrics.horizontalAdvance(QLocale().toString(
                                          QDateTime(QDate(2000, 12, 28), QTime(23, 58, 58)), kTimeFormat)) +
                                          metrics.averageCharWidth() * 3);
    int levelWidth = metrics.horizontalAdvance(tr("Level"));
    for (int i = 1; i < levelFilter_->count(); ++i)
        levelWidth = std::max(levelWidth, metrics.horizontalAdvance(levelFilter_->itemText(i)));
    // The view's iconSize() is unset (-1) until someone sets it; the style's small icon is what it draws.
    const int iconWidth = view_->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, view_);
    view_->setColumnWidth(LevelColumn, levelWidth + iconWidth + metrics.averageCharWidth() * 4);
    view_->installEventFilter(this);

    auto* levelLabel = new QLabel(tr("Lev&el:"), this);
    levelLabel->setBuddy(levelFilter_);
    auto* textLabel = new QLabel(tr("Fin&d:"), this);
    textLabel->setBuddy(textFilter_);
    auto* bar = new QHBoxLayout;
    bar->addWidget(levelLabel);
    bar->addWidget(levelFilter_);
    bar->addWidget(textLabel);
    bar->addWidget(textFilter_, 1);
    bar->addWidget(copyButton);
    bar->addWidget(clearButton);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);

    connect(&engine, &engine::EngineFacade::eventLogged, this, &EventLogPanel::append);
}

int EventLogPanel::rowCount() const {
    return events_->rowCount();
}

void EventLogPanel::append(const engine::EngineEvent& event) {
    // Follows the newest event only when the user was already looking at the end.
    const QScrollBar* scroll = view_->verticalScrollBar();
    const bool atEnd = scroll->value() == scroll->maximum();

    // The log's lines are the engine's English, for reports: their times in the same digits (Bengali
    // digits beside English text read as two languages at once).
    auto* time =
        new QStandardItem(QLocale::c().toString(QDateTime::fromMSecsSinceEpoch(event.timeMs), kTimeFormat));
    auto* level = new QStandardItem(style()->standardIcon(levelIcon(event.level)), levelWord(event.level));
    level->setData(engine::eventLevelName(event.level), kLevelNameRole);
    // A pause in the words the window says it in ("Paused: running on battery"), not its code
    // ("paused (on_battery)"), which the tooltip keeps.
    const QString words = event.cause != engine::PauseCause::None
                              ? StateText::cause(event.cause, event.snoozedUntilMs)
                              : event.text;
    auto* text = new QStandardItem(shownText(words));
    if (event.text.size() <= kMaxTextLength)
        text->setToolTip(event.text);
    events_->appendRow({time, level, text});

    if (const int excess = events_->rowCount() - kMaxRows; excess > 0)
        events_->removeRows(0, excess);
    if (atEnd)
        view_->scrollToBottom();
}

QString EventLogPanel::lineAt(int proxyRow) const {
    QStringList fields;
    for (int column = 0; column < ColumnCount; ++column)
        fields << byText_->index(proxyRow, column).data(Qt::DisplayRole).toString();
    return fields.join(QLatin1Char('\t'));
}

QStringList EventLogPanel::visibleLines() const {
    QStringList lines;
    for (int row = 0; row < byText_->rowCount(); ++row)
        lines << lineAt(row);
    return lines;
}

void EventLogPanel::copy() {
    QList<int> rows;
    for (const QModelIndex& index : view_->selectionModel()->selectedRows())
        rows << index.row();
    QStringList lines;
    if (rows.isEmpty()) {
        lines = visibleLines();
    } else {
        // In the order shown, not the order the user clicked them.
        std::sort(rows.begin(), rows.end());
        for (const int row : rows)
            lines << lineAt(row);
    }
    QGuiApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

void EventLogPanel::clear() {
    events_->removeRows(0, events_->rowCount());
}

void EventLogPanel::applyLevelFilter() {
    const QString name = levelFilter_->currentData().toString();
    byLevel_->setFilterRegularExpression(
        name.isEmpty()
            ? QRegularExpression()
            : QRegularExpression(QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$')));
}

bool EventLogPanel::eventFilter(QObject* watched, QEvent* event) {
    // Ctrl+C in the table copies whole rows; the table alone would copy only the current cell.
    if (watched == view_ &&
        (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        if (event->type() == QEvent::KeyPress)
            copy();
        event->accept();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace sahaj::ui
