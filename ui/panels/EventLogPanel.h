#pragma once

#include "core/engine/EngineEvent.h"

#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
QT_END_NAMESPACE

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

// The engine's events, newest at the bottom: time, level, text. The user narrows them by level and by a
// piece of text, and copies the selected rows (or every row shown) as lines of text, to paste into a
// bug report. Only the newest kMaxRows are kept, so a week-long session does not grow without bound.
class EventLogPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxRows = 5000;
    // An event's text is shown up to this many characters (the engine quotes peers' words in some).
    static constexpr qsizetype kMaxTextLength = 2000;

    explicit EventLogPanel(engine::EngineFacade& engine, QWidget* parent = nullptr);

    // Rows held, shown or not.
    int rowCount() const;
    // The rows shown, as copy() writes them: "time<TAB>level<TAB>text".
    QStringList visibleLines() const;

public Q_SLOTS:
    void append(const sahaj::engine::EngineEvent& event);
    // Puts the selected rows shown, or every row shown when none is selected, on the clipboard.
    void copy();
    void clear();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QString lineAt(int proxyRow) const;
    void applyLevelFilter();

    QStandardItemModel* events_ = nullptr;
    QSortFilterProxyModel* byLevel_ = nullptr;
    QSortFilterProxyModel* byText_ = nullptr;
    QComboBox* levelFilter_ = nullptr;
    QLineEdit* textFilter_ = nullptr;
    QTableView* view_ = nullptr;
};

} // namespace sahaj::ui
