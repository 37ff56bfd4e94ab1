#pragma once

#include "core/engine/VolunteerSettings.h"

#include <QTableWidget>

namespace sahaj::ui {

// The weekly schedule as a grid of toggle cells: a row per day (Monday first, as the settings count them), a
// column per hour. A click toggles a cell and dragging paints the same value over the cells passed; from the
// keyboard the arrows move (Shift extends the selection) and Space or Enter toggles the selected cells. Each
// cell tells screen readers its day, hour and whether computing is allowed.
class WeeklyScheduleGrid : public QTableWidget {
    Q_OBJECT
public:
    using WeeklyHours = engine::VolunteerSettings::WeeklyHours;

    explicit WeeklyScheduleGrid(QWidget* parent = nullptr);

    WeeklyHours hours() const;
    void setHours(const WeeklyHours& hours);
    bool isAllowed(int day, int hour) const;
    // Sets every cell that is selected to `allowed` (or the current cell when none is).
    void setSelectedAllowed(bool allowed);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void hoursChanged();

protected:
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void setCell(int day, int hour, bool allowed);

    bool painting_ = false;
    bool paintValue_ = true;
};

} // namespace sahaj::ui
