#include "ui/panels/TrainingPanel.h"

#include "core/engine/EngineFacade.h"
#include "ui/StateText.h"
#include "ui/format/Figures.h"
#include "ui/widgets/DownloadProgress.h"

#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <climits>
#include <cmath>

namespace sahaj::ui {

namespace {

constexpr int kFigureColumns = 3;
// About this many ticks under the loss curve.
constexpr double kEpochTicks = 6;
// A loss label never needs more: a curve flatter than this is flat.
constexpr int kMaxLossDecimals = 6;

// The smallest of 1, 2, 5, 10, 20, 50, ... epochs at or above `step`.
double roundStep(double step) {
    if (!(step > 1))
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(step)));
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * power >= step)
            return factor * power;
    }
    return 10 * power;
}

bool isWhole(double value) {
    return std::abs(value - std::round(value)) < 1e-6;
}

// The decimals the loss axis's labels need so that no two ticks read alike, however small the loss's
// range: those of its first tick and of the step between ticks, which applyNiceNumbers() puts on round
// numbers. Fewer would round neighbouring ticks to one label ("11.07, 11.07, 11.06").
int lossDecimals(double firstTick, double step) {
    for (int decimals = 0; decimals < kMaxLossDecimals; ++decimals) {
        const double scale = std::pow(10.0, decimals);
        if (isWhole(firstTick * scale) && isWhole(step * scale))
            return decimals;
    }
    return kMaxLossDecimals;
}

QLabel* boldLabel(QWidget* parent, double scale) {
    auto* label = new QLabel(parent);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(true);
    label->setFont(font);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

TrainingPanel::TrainingPanel(engine::EngineFacade& engine, QWidget* parent)
    : QWidget(parent), engine_(engine) {
    setAccessibleName(tr("Training"));

    stateValue_ = boldLabel(this, 1.2);
    stateValue_->setObjectName(QStringLiteral("stateValue"));
    stateValue_->setAccessibleName(tr("State"));
    stateValue_->setWordWrap(true);

    // Right under the state: while the run's files download the engine is still joining, and the figures
    // below have nothing to show yet.
    download_ = new DownloadProgress(this);

    figures_ = new QGridLayout;
    figures_->setHorizontalSpacing(24);
    epochValue_ = addFigure(0, 0, tr("Global epoch"), QStringLiteral("globalEpochValue"),
                            tr("Global steps the collaboration has taken in this run"));
    etaValue_ = addFigure(0, 1, tr("Next step in"), QStringLiteral("etaValue"),
                          tr("Estimated time until the collaboration's batch is full and it takes a step"));
    peersValue_ = addFigure(0, 2, tr("Peers online"), QStringLiteral("peersValue"),
                            tr("Volunteers training in this run, this one included"));
    localRateValue_ = addFigure(1, 0, tr("This computer"), QStringLiteral("localRateValue"),
                                tr("Samples per second this computer computes"));
    collaborationRateValue_ =
        addFigure(1, 1, tr("Whole collaboration"), QStringLiteral("collaborationRateValue"),
                  tr("Samples per second all the volunteers compute together"));
    clientsValue_ = addFigure(1, 2, tr("Clients online"), QStringLiteral("clientsValue"),
                              tr("Volunteers that compute but cannot accept connections"));

    computeValue_ = new QLabel(this);
    computeValue_->setObjectName(QStringLiteral("computeValue"));
    computeValue_->setAccessibleName(tr("What computes"));
    computeValue_->setTextFormat(Qt::PlainText);
    computeValue_->setWordWrap(true);
    computeValue_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    computeValue_->setToolTip(tr("The compute core and device training here; the event log says why others "
                                 "were passed over"));

    auto* batchCaption = new QLabel(tr("Current batch"), this);
    batchProgress_ = new QProgressBar(this);
    batchProgress_->setObjectName(QStringLiteral("batchProgress"));
    batchProgress_->setAccessibleName(tr("Progress of the current batch"));
    batchProgress_->setTextVisible(true);
    batchProgress_->setAlignment(Qt::AlignCenter);
    batchCaption->setBuddy(batchProgress_);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(stateValue_);
    layout->addWidget(download_);
    layout->addSpacing(6);
    layout->addLayout(figures_);
    layout->addWidget(computeValue_);
    layout->addSpacing(6);
    layout->addWidget(batchCaption);
    layout->addWidget(batchProgress_);
    layout->addWidget(buildLossChart(), 1);

    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &TrainingPanel::render);
    render();
}

QLabel* TrainingPanel::addFigure(int row, int column, const QString& caption, const QString& objectName,
                                 const QString& help) {
    auto* captionLabel = new QLabel(caption, this);
    captionLabel->setToolTip(help);
    QLabel* value = boldLabel(this, 1.5);
    value->setObjectName(objectName);
    value->setToolTip(help);
    value->setAccessibleName(caption);
    figures_->addWidget(captionLabel, 2 * row, column);
    figures_->addWidget(value, 2 * row + 1, column);
    figures_->setColumnStretch(column, 1);
    Q_ASSERT(column < kFigureColumns);
    return value;
}

QWidget* TrainingPanel::buildLossChart() {
    lossChart_ = new QChart;
    lossChart_->setLocalizeNumbers(true);
    lossChart_->legend()->hide();
    lossChart_->setBackgroundRoundness(0);
    lossChart_->setMargins(QMargins(4, 4, 4, 4));
    lossChart_->setTitle(tr("Training loss by epoch"));
    epochAxis_ = new QValueAxis;
    epochAxis_->setTitleText(tr("Epoch"));
    // "%.0f", not "%i": Qt 6.4 draws no label at all for "%i" when it localizes numbers.
    epochAxis_->setLabelFormat(QStringLiteral("%.0f"));
    // Ticks on round epochs (10, 20, 30), wherever the curve begins.
    epochAxis_->setTickType(QValueAxis::TicksDynamic);
    epochAxis_->setTickAnchor(0);
    lossAxis_ = new QValueAxis;
    lossAxis_->setTitleText(tr("Loss"));
    lossChart_->addAxis(epochAxis_, Qt::AlignBottom);
    lossChart_->addAxis(lossAxis_, Qt::AlignLeft);

    lossView_ = new QChartView(lossChart_, this);
    lossView_->setObjectName(QStringLiteral("lossChart"));
    lossView_->setAccessibleName(tr("Training loss by epoch"));
    lossView_->setRenderHint(QPainter::Antialiasing);
    lossView_->setMinimumHeight(220);

    lossEmpty_ = new QLabel(
        tr("No loss recorded yet: the curve begins once the collaboration takes its first step."), this);
    lossEmpty_->setObjectName(QStringLiteral("lossEmptyLabel"));
    lossEmpty_->setAlignment(Qt::AlignCenter);
    lossEmpty_->setWordWrap(true);

    lossStack_ = new QStackedWidget(this);
    lossStack_->addWidget(lossEmpty_);
    lossStack_->addWidget(lossView_);
    return lossStack_;
}

void TrainingPanel::render() {
    const auto snapshot = engine_.snapshot();
    if (!snapshot)
        return;
    const engine::EngineSnapshot& s = *snapshot;

    // As the status line words it: a pause's reason stands alone ("Paused by you", not "Paused · Paused
    // by you").
    stateValue_->setText(StateText::headline(s));
    download_->setDownload(s.download);
    epochValue_->setText(Figures::count(static_cast<double>(s.globalEpoch)));
    // The live figures are what this peer hears while it is in the collaboration: paused, snoozed or
    // offline it hears nothing, so it shows none rather than the last ones ("next step in 3 s", "4 peers
    // online" while paused).
    const bool live = s.state == engine::EngineState::Training || s.state == engine::EngineState::Waiting;
    const QString none = tr("—");
    etaValue_->setText(live ? Figures::duration(s.etaSeconds) : none);
    peersValue_->setText(live ? Figures::count(s.peersOnline) : none);
    clientsValue_->setText(live ? Figures::count(s.clientsOnline) : none);
    localRateValue_->setText(live ? StateText::samplesPerSecond(s.localSamplesPerSecond) : none);
    computeValue_->setText(s.compute.isEmpty() ? QString() : tr("Computing with the %1").arg(s.compute));
    computeValue_->setVisible(!s.compute.isEmpty());
    collaborationRateValue_->setText(live ? StateText::samplesPerSecond(s.collaborationSamplesPerSecond)
                                          : none);
    showBatch(s.batchSamples, s.targetBatchSize);
    showLoss();
}

void TrainingPanel::showBatch(double samples, quint64 target) {
    if (target == 0 || !std::isfinite(samples)) {
        batchProgress_->setRange(0, 1);
        batchProgress_->setValue(0);
        batchProgress_->setFormat(tr("Batch size not known yet"));
        return;
    }
    // QProgressBar counts in int; no batch comes near that, but a snapshot is not trusted to.
    const int maximum = static_cast<int>(std::min<quint64>(target, INT_MAX));
    const double clamped = std::clamp(samples, 0.0, static_cast<double>(maximum));
    batchProgress_->setRange(0, maximum);
    batchProgress_->setValue(static_cast<int>(std::lround(clamped)));
    // The figures themselves, not QProgressBar's %v and %m: the bar's range may be clamped.
    batchProgress_->setFormat(tr("%1 of %2 samples (%3)")
                                  .arg(Figures::count(samples), Figures::count(static_cast<double>(target)),
                                       Figures::percent(samples / static_cast<double>(target))));
}

void TrainingPanel::showLossSegments(const QList<QList<QPointF>>& segments) {
    while (lossSegments_.size() > static_cast<std::size_t>(segments.size())) {
        lossChart_->removeSeries(lossSegments_.back());
        delete lossSegments_.back();
        lossSegments_.pop_back();
    }
    while (lossSegments_.size() < static_cast<std::size_t>(segments.size())) {
        auto* series = new QLineSeries;
        series->setObjectName(QStringLiteral("lossSeries"));
        series->setName(tr("Loss"));
        series->setPointsVisible(true); // an epoch between two gaps is a point, not a line
        lossChart_->addSeries(series);
        series->attachAxis(epochAxis_);
        series->attachAxis(lossAxis_);
        // One colour for the curve, however many pieces it is in.
        if (!lossSegments_.empty())
            series->setColor(lossSegments_.front()->color());
        lossSegments_.push_back(series);
    }
    for (qsizetype i = 0; i < segments.size(); ++i)
        lossSegments_[static_cast<std::size_t>(i)]->replace(segments[i]);
}

void TrainingPanel::showLoss() {
    const auto snapshot = engine_.snapshot();
    QList<QList<QPointF>> segments; // runs of consecutive epochs
    qsizetype count = 0;
    double low = 0.0;
    double high = 0.0;
    for (const engine::LossPoint& point : snapshot->loss) {
        // A diverged step's NaN or infinity would take the axes with it.
        if (!std::isfinite(point.loss))
            continue;
        low = count == 0 ? point.loss : std::min(low, point.loss);
        high = count == 0 ? point.loss : std::max(high, point.loss);
        const QPointF at(static_cast<qreal>(point.epoch), point.loss);
        if (segments.isEmpty() || segments.back().back().x() + 1 < at.x())
            segments.append(QList<QPointF>{});
        segments.back() << at;
        ++count;
    }
    showLossSegments(segments);
    if (count == 0) {
        lossStack_->setCurrentWidget(lossEmpty_);
        return;
    }
    const qreal first = segments.front().front().x();
    const QPointF latest = segments.back().back();
    const qreal last = latest.x();
    epochAxis_->setRange(first, last > first ? last : first + 1);
    epochAxis_->setTickInterval(roundStep((last - first) / kEpochTicks));
    const double margin = high > low ? (high - low) * 0.05 : 0.5;
    lossAxis_->setRange(low - margin, high + margin);
    lossAxis_->applyNiceNumbers();
    const double step = (lossAxis_->max() - lossAxis_->min()) / std::max(1, lossAxis_->tickCount() - 1);
    lossAxis_->setLabelFormat(QStringLiteral("%.%1f").arg(lossDecimals(lossAxis_->min(), step)));
    lossView_->setAccessibleDescription(tr("%1 points, from epoch %2 to %3; the latest loss is %4")
                                            .arg(Figures::count(count), Figures::count(first),
                                                 Figures::count(last), Figures::decimal(latest.y(), 3)));
    lossStack_->setCurrentWidget(lossView_);
}

} // namespace sahaj::ui
