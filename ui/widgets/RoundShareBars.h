#pragma once

#include "core/engine/EngineSnapshot.h"

#include <QWidget>

#include <vector>

namespace sahaj::ui {

// This peer's span of the recent averaging rounds against the other members: one horizontal bar per
// round (oldest at the top), each member's share of the averaged vector a segment of it. This peer's
// segment is drawn in a strong colour, the others muted; clients aggregate nothing and take no width.
// Hovering a segment tells whose it is; hovering a round's label lists all its members.
class RoundShareBars : public QWidget {
    Q_OBJECT

public:
    explicit RoundShareBars(QWidget* parent = nullptr);

    void setRounds(std::vector<engine::RoundSummary> rounds);
    const std::vector<engine::RoundSummary>& rounds() const { return rounds_; }
    int barCount() const { return static_cast<int>(rounds_.size()); }

    // The whole bar of round `round` (0: the oldest shown), in widget pixels.
    QRectF barRect(int round) const;
    // The segment of member `member` of round `round`; empty for a member with no share.
    QRectF segmentRect(int round, int member) const;
    // The hover text for `pos` (plain text), empty when nothing is there.
    QString toolTipAt(QPointF pos) const;

    static QColor selfColour();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    struct Layout {
        double labelWidth;
        double rowHeight;
        double barHeight;
        QRectF bars; // where the bars go, the axis below it
    };
    Layout layout() const;
    QString roundLabel(int round) const;
    QString memberText(const engine::RoundShare& member) const;

    std::vector<engine::RoundSummary> rounds_;
};

} // namespace sahaj::ui
