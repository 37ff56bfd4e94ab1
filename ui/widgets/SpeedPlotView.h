#pragma once

#include <QWidget>

#include <vector>

namespace sahaj::ui {

// The upload and download speed graph (as qBittorrent draws its own): two lines over a time period,
// a rate axis with labelled grid lines, the period's times below and a legend with the latest rates.
// It draws what it is given; the bandwidth panel decides the period and where the points come from.
class SpeedPlotView : public QWidget {
    Q_OBJECT

public:
    struct Point {
        qint64 timeMs = 0;
        double upBytesPerSecond = 0.0;
        double downBytesPerSecond = 0.0;
    };

    explicit SpeedPlotView(QWidget* parent = nullptr);

    // points: in time order, inside [fromMs, toMs] (others are not drawn).
    void setSeries(std::vector<Point> points, qint64 fromMs, qint64 toMs);
    const std::vector<Point>& points() const { return points_; }
    qint64 fromMs() const { return fromMs_; }
    qint64 toMs() const { return toMs_; }
    // The rate at the top of the axis: a round figure at or above the highest point.
    double axisMaximum() const;

    static QColor uploadColour();
    static QColor downloadColour();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString timeLabel(qint64 timeMs) const;

    std::vector<Point> points_;
    qint64 fromMs_ = 0;
    qint64 toMs_ = 0;
};

} // namespace sahaj::ui
