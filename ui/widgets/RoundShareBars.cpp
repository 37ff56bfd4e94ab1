#include "ui/widgets/RoundShareBars.h"

#include "ui/format/Figures.h"
#include "ui/widgets/PeerRole.h"
#include "ui/widgets/PlainToolTip.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace sahaj::ui {

namespace {

constexpr double kMaxRowHeight = 26.0;
constexpr int kAxisDivisions = 4;
const QColor kMuted[] = {QColor(0xb4, 0xb4, 0xb4), QColor(0xd2, 0xd2, 0xd2)};

// A member's share as drawn: nothing for a missing or negative share.
double drawnShare(const engine::RoundShare& member) {
    return std::isfinite(member.share) && member.share > 0.0 ? member.share : 0.0;
}

// Shares that add up to more than the whole vector (rounding) are scaled down to fit the bar.
double shareScale(const engine::RoundSummary& round) {
    double total = 0.0;
    for (const engine::RoundShare& member : round.members)
        total += drawnShare(member);
    return total > 1.0 ? 1.0 / total : 1.0;
}

} // namespace

RoundShareBars::RoundShareBars(QWidget* parent) : QWidget(parent) {
    setAccessibleName(tr("Share of the recent averaging rounds"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void RoundShareBars::setRounds(std::vector<engine::RoundSummary> rounds) {
    rounds_ = std::move(rounds);
    setAccessibleDescription(tr("Rounds shown: %1").arg(Figures::count(barCount())));
    update();
}

QColor RoundShareBars::selfColour() {
    return QColor(0x00, 0x72, 0xb2);
}

QString RoundShareBars::roundLabel(int round) const {
    const engine::RoundSummary& summary = rounds_[static_cast<std::size_t>(round)];
    return tr("Epoch %1").arg(Figures::count(static_cast<double>(summary.epoch)));
}

RoundShareBars::Layout RoundShareBars::layout() const {
    const QFontMetricsF metrics(font());
    double labelWidth = 0.0;
    for (int i = 0; i < barCount(); ++i)
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(roundLabel(i)));
    labelWidth += 12.0;
    const double axisHeight = metrics.height() + 6.0;
    const double available = std::max(0.0, height() - 6.0 - axisHeight);
    const double rowHeight = barCount() > 0 ? std::min(kMaxRowHeight, available / barCount()) : 0.0;
    // Room for the last axis label to be centred on the bars' right end.
    const double right = metrics.horizontalAdvance(Figures::percent(1.0)) / 2.0 + 4.0;
    return {labelWidth, rowHeight, std::max(2.0, rowHeight * 0.72),
            QRectF(labelWidth, 4.0, std::max(0.0, width() - labelWidth - right), rowHeight * barCount())};
}

QRectF RoundShareBars::barRect(int round) const {
    if (round < 0 || round >= barCount())
        return {};
    const Layout l = layout();
    return {l.bars.left(), l.bars.top() + round * l.rowHeight + (l.rowHeight - l.barHeight) / 2.0,
            l.bars.width(), l.barHeight};
}

QRectF RoundShareBars::segmentRect(int round, int member) const {
    const QRectF bar = barRect(round);
    if (bar.isEmpty())
        return {};
    const engine::RoundSummary& summary = rounds_[static_cast<std::size_t>(round)];
    if (member < 0 || member >= static_cast<int>(summary.members.size()))
        return {};
    const double scale = shareScale(summary);
    double before = 0.0;
    for (int k = 0; k < member; ++k)
        before += drawnShare(summary.members[static_cast<std::size_t>(k)]);
    const double share = drawnShare(summary.members[static_cast<std::size_t>(member)]);
    if (share <= 0.0)
        return {};
    return {bar.left() + bar.width() * before * scale, bar.top(), bar.width() * share * scale, bar.height()};
}

QString RoundShareBars::memberText(const engine::RoundShare& member) const {
    const QString id = Figures::shortPeerId(member.peerId);
    return tr("%1: %2, %3")
        .arg(member.self ? tr("%1 (this computer)").arg(id) : id, PeerRole::name(member.role),
             Figures::percent(drawnShare(member)));
}

QString RoundShareBars::toolTipAt(QPointF pos) const {
    for (int r = 0; r < barCount(); ++r) {
        const QRectF bar = barRect(r);
        if (pos.y() < bar.top() || pos.y() > bar.bottom())
            continue;
        const engine::RoundSummary& summary = rounds_[static_cast<std::size_t>(r)];
        const QString heading =
            summary.complete ? roundLabel(r) : tr("%1 (did not complete)").arg(roundLabel(r));
        if (pos.x() < bar.left()) {
            // The label: the whole round.
            QStringList lines{heading, tr("%1 to average, %2 sent, %3 received")
                                           .arg(Figures::duration(summary.seconds),
                                                Figures::bytes(static_cast<double>(summary.bytesSent)),
                                                Figures::bytes(static_cast<double>(summary.bytesReceived)))};
            for (const engine::RoundShare& member : summary.members)
                lines << memberText(member);
            return lines.join(QLatin1Char('\n'));
        }
        for (int m = 0; m < static_cast<int>(summary.members.size()); ++m)
            if (segmentRect(r, m).contains(pos))
                return heading + QLatin1Char('\n') + memberText(summary.members[static_cast<std::size_t>(m)]);
        return {};
    }
    return {};
}

QSize RoundShareBars::sizeHint() const {
    return {440, 260};
}

QSize RoundShareBars::minimumSizeHint() const {
    return {240, 100};
}

bool RoundShareBars::event(QEvent* event) {
    return PlainToolTip::answer(this, event, [this](QPointF pos) { return toolTipAt(pos); }) ||
           QWidget::event(event);
}

void RoundShareBars::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::Text);
    if (rounds_.empty()) {
        painter.setPen(text);
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No averaging round yet"));
        return;
    }
    const Layout l = layout();
    const QFontMetricsF metrics(font());
    QColor track = text;
    track.setAlpha(18);
    for (int r = 0; r < barCount(); ++r) {
        const engine::RoundSummary& summary = rounds_[static_cast<std::size_t>(r)];
        const QRectF bar = barRect(r);
        painter.setPen(text);
        painter.drawText(
            QRectF(0, bar.center().y() - metrics.height() / 2, l.labelWidth - 8.0, metrics.height()),
            Qt::AlignRight | Qt::AlignVCenter, roundLabel(r));
        painter.fillRect(bar, track);
        // A round that fell back is drawn faded: its shares were planned, not all averaged.
        painter.setOpacity(summary.complete ? 1.0 : 0.45);
        int others = 0;
        for (int m = 0; m < static_cast<int>(summary.members.size()); ++m) {
            const QRectF segment = segmentRect(r, m);
            if (segment.isEmpty())
                continue;
            const bool self = summary.members[static_cast<std::size_t>(m)].self;
            // A hairline gap between neighbours keeps two members with similar colours apart.
            painter.fillRect(segment.width() > 3.0 ? segment.adjusted(0, 0, -1, 0) : segment,
                             self ? selfColour() : kMuted[others++ % 2]);
        }
        painter.setOpacity(1.0);
    }

    // Share axis below the bars.
    QColor grid = text;
    grid.setAlpha(60);
    const double axisY = l.bars.bottom() + 2.0;
    for (int i = 0; i <= kAxisDivisions; ++i) {
        const double fraction = static_cast<double>(i) / kAxisDivisions;
        const double x = l.bars.left() + l.bars.width() * fraction;
        painter.setPen(QPen(grid, 1.0));
        painter.drawLine(QPointF(x, axisY), QPointF(x, axisY + 3.0));
        const QString label = Figures::percent(fraction);
        const double w = metrics.horizontalAdvance(label) + 4.0;
        painter.setPen(text);
        painter.drawText(QRectF(x - w / 2, axisY + 3.0, w, metrics.height()), Qt::AlignCenter, label);
    }
}

} // namespace sahaj::ui
