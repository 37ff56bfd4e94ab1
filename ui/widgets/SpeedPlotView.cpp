#include "ui/widgets/SpeedPlotView.h"

#include "ui/Durations.h"
#include "ui/format/Figures.h"

#include <QDateTime>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace sahaj::ui {

namespace {

constexpr int kGridDivisions = 4;
constexpr int kTimeTicks = 5;

} // namespace

SpeedPlotView::SpeedPlotView(QWidget* parent) : QWidget(parent) {
    setAccessibleName(tr("Upload and download speed graph"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SpeedPlotView::setSeries(std::vector<Point> points, qint64 fromMs, qint64 toMs) {
    points_ = std::move(points);
    fromMs_ = fromMs;
    toMs_ = std::max(toMs, fromMs + 1);
    const Point latest = points_.empty() ? Point{} : points_.back();
    setAccessibleDescription(
        tr("Latest upload %1, download %2")
            .arg(Figures::rate(latest.upBytesPerSecond), Figures::rate(latest.downBytesPerSecond)));
    update();
}

QColor SpeedPlotView::uploadColour() {
    return QColor(0xd5, 0x5e, 0x00);
}

QColor SpeedPlotView::downloadColour() {
    return QColor(0x00, 0x72, 0xb2);
}

double SpeedPlotView::axisMaximum() const {
    double highest = 0.0;
    for (const Point& point : points_)
        for (double rate : {point.upBytesPerSecond, point.downBytesPerSecond})
            if (std::isfinite(rate))
                highest = std::max(highest, rate);
    if (highest <= 0.0)
        return 1000.0; // an idle link still gets an axis: 0 to 1 kB/s
    // Mantissas whose quarters read well on the grid lines.
    const double magnitude = std::pow(10.0, std::floor(std::log10(highest)));
    for (double mantissa : {1.0, 2.0, 4.0, 6.0, 8.0, 10.0})
        if (highest <= mantissa * magnitude * (1.0 + 1e-9))
            return mantissa * magnitude;
    return 10.0 * magnitude;
}

QString SpeedPlotView::timeLabel(qint64 timeMs) const {
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(timeMs);
    const QLocale locale;
    const QString clock = Figures::clock(time.time());
    if (toMs_ - fromMs_ <= kDayMs)
        return clock;
    return locale.dayName(time.date().dayOfWeek(), QLocale::ShortFormat) + QLatin1Char(' ') + clock;
}

QSize SpeedPlotView::sizeHint() const {
    return {640, 260};
}

QSize SpeedPlotView::minimumSizeHint() const {
    return {280, 140};
}

void SpeedPlotView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetricsF metrics(font());
    const QColor text = palette().color(QPalette::Text);
    const double top = axisMaximum();

    double labelWidth = 0.0;
    for (int i = 0; i <= kGridDivisions; ++i)
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(Figures::rate(top * i / kGridDivisions)));
    const double legendHeight = metrics.height() + 10.0;
    const QRectF plot(QPointF(labelWidth + 12.0, legendHeight),
                      QPointF(width() - 14.0, height() - metrics.height() - 8.0));
    if (plot.width() < 10 || plot.height() < 10)
        return;

    // Grid and rate axis.
    QColor grid = text;
    grid.setAlpha(40);
    for (int i = 0; i <= kGridDivisions; ++i) {
        const double y = plot.bottom() - plot.height() * i / kGridDivisions;
        painter.setPen(QPen(grid, 1.0, i == 0 ? Qt::SolidLine : Qt::DashLine));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(text);
        painter.drawText(QRectF(0, y - metrics.height() / 2, labelWidth + 6.0, metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, Figures::rate(top * i / kGridDivisions));
    }
    // Time axis: the period's start, its end and three times between.
    const double span = std::max(1.0, static_cast<double>(toMs_ - fromMs_));
    for (int i = 0; i < kTimeTicks; ++i) {
        const double x = plot.left() + plot.width() * i / (kTimeTicks - 1);
        painter.setPen(QPen(grid, 1.0));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 3.0));
        const QString label = timeLabel(fromMs_ + static_cast<qint64>(span * i / (kTimeTicks - 1)));
        const double labelWidthHere = metrics.horizontalAdvance(label) + 4.0;
        const double left = std::clamp(x - labelWidthHere / 2, 0.0, width() - labelWidthHere);
        painter.setPen(text);
        painter.drawText(QRectF(left, plot.bottom() + 4.0, labelWidthHere, metrics.height()), Qt::AlignCenter,
                         label);
    }

    const auto xOf = [&](qint64 timeMs) { return plot.left() + plot.width() * (timeMs - fromMs_) / span; };
    const auto yOf = [&](double rate) {
        return plot.bottom() - plot.height() * std::clamp(std::isfinite(rate) ? rate : 0.0, 0.0, top) / top;
    };
    const auto drawLine = [&](const QColor& colour, double Point::*rate) {
        QPainterPath path;
        bool started = false;
        for (const Point& point : points_) {
            if (point.timeMs < fromMs_ || point.timeMs > toMs_)
                continue;
            const QPointF at(xOf(point.timeMs), yOf(point.*rate));
            if (started) {
                path.lineTo(at);
            } else {
                path.moveTo(at);
                started = true;
            }
        }
        painter.setPen(QPen(colour, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
    };
    painter.save();
    painter.setClipRect(plot.adjusted(-2, -2, 2, 2));
    drawLine(downloadColour(), &Point::downBytesPerSecond);
    drawLine(uploadColour(), &Point::upBytesPerSecond);
    painter.restore();
    if (points_.empty()) {
        painter.setPen(text);
        painter.drawText(plot, Qt::AlignCenter, tr("No transfer recorded in this period"));
    }

    // Legend above the plot, with the latest rates.
    const Point latest = points_.empty() ? Point{} : points_.back();
    double x = plot.left();
    for (const auto& [colour, label] :
         {std::pair{uploadColour(), tr("Upload %1").arg(Figures::rate(latest.upBytesPerSecond))},
          std::pair{downloadColour(), tr("Download %1").arg(Figures::rate(latest.downBytesPerSecond))}}) {
        const double y = legendHeight / 2.0;
        painter.setPen(QPen(colour, 3.0, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(QPointF(x, y), QPointF(x + 16.0, y));
        painter.setPen(text);
        const double w = metrics.horizontalAdvance(label) + 2.0;
        painter.drawText(QRectF(x + 22.0, 0, w, legendHeight), Qt::AlignLeft | Qt::AlignVCenter, label);
        x += 22.0 + w + 18.0;
    }
}

} // namespace sahaj::ui
