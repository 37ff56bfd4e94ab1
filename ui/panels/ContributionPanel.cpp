#include "ui/panels/ContributionPanel.h"

#include "core/engine/EngineFacade.h"
#include "core/store/EpochContribution.h"
#include "ui/Durations.h"
#include "ui/format/Figures.h"

#include <QBarSeries>
#include <QBarSet>
#include <QButtonGroup>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <exception>

namespace sahaj::ui {

namespace {

// A label under every sixth hour bar and every fifth day bar: more would overlap at the window's width.
constexpr int kHourLabelStep = 6;
constexpr int kDayLabelStep = 5;
constexpr int kClockMs = 60 * 1000;

QTimeZone chartZone() {
    // The ledger refuses an invalid zone; a machine whose zone Qt cannot read still gets a chart.
    const QTimeZone system = QTimeZone::systemTimeZone();
    return system.isValid() ? system : QTimeZone::utc();
}

QString computeHours(double hours) {
    return ContributionPanel::tr("%1 h").arg(Figures::decimal(hours, hours < 100 ? 2 : 0));
}

} // namespace

ContributionPanel::ContributionPanel(engine::EngineFacade& engine, QWidget* parent)
    : QWidget(parent), engine_(engine) {
    setAccessibleName(tr("Contribution"));

    figures_ = new QGridLayout;
    figures_->setHorizontalSpacing(24);
    samplesValue_ = addFigure(0, tr("Samples contributed"), QStringLiteral("samplesValue"),
                              tr("Training examples this computer computed gradients on, in every run"));
    tokensValue_ =
        addFigure(1, tr("Tokens contributed"), QStringLiteral("tokensValue"), tr("Tokens in those samples"));
    computeHoursValue_ = addFigure(2, tr("Compute hours"), QStringLiteral("computeHoursValue"),
                                   tr("Hours this computer spent computing them"));
    epochsValue_ = addFigure(3, tr("Epochs joined"), QStringLiteral("epochsValue"),
                             tr("Global steps of the collaboration this computer took part in"));
    batchShareValue_ = addFigure(4, tr("Share of the last batch"), QStringLiteral("batchShareValue"),
                                 tr("This computer's samples as a part of the last global batch"));

    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("historyProblem"));
    problem_->setWordWrap(true);
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problem_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(figures_);
    layout->addWidget(problem_);
    layout->addWidget(buildHistory(), 1);

    connect(&engine_, &engine::EngineFacade::ledgerChanged, this, &ContributionPanel::refresh);
    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &ContributionPanel::showShare);
    // The chart moves on with the clock even while nothing is recorded (a paused or offline volunteer).
    auto* clock = new QTimer(this);
    clock->setInterval(kClockMs);
    connect(clock, &QTimer::timeout, this, [this] { readHistory(false); });
    clock->start();
    readTotals();
    readHistory(true);
}

QLabel* ContributionPanel::addFigure(int column, const QString& caption, const QString& objectName,
                                     const QString& help) {
    auto* captionLabel = new QLabel(caption, this);
    captionLabel->setToolTip(help);
    auto* value = new QLabel(this);
    value->setObjectName(objectName);
    value->setToolTip(help);
    value->setAccessibleName(caption);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont font = value->font();
    font.setPointSizeF(font.pointSizeF() * 1.6);
    font.setBold(true);
    value->setFont(font);
    figures_->addWidget(captionLabel, 0, column);
    figures_->addWidget(value, 1, column);
    figures_->setColumnStretch(column, 1);
    return value;
}

QWidget* ContributionPanel::buildHistory() {
    auto* box = new QWidget(this);
    auto* title = new QLabel(tr("Samples contributed over time"), box);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    title->setFont(titleFont);

    hourButton_ = new QPushButton(tr("By h&our (48 h)"), box);
    hourButton_->setObjectName(QStringLiteral("hourButton"));
    dayButton_ = new QPushButton(tr("By &day (30 days)"), box);
    dayButton_->setObjectName(QStringLiteral("dayButton"));
    auto* group = new QButtonGroup(box);
    for (QPushButton* button : {hourButton_, dayButton_}) {
        button->setCheckable(true);
        group->addButton(button);
    }
    hourButton_->setChecked(true);
    connect(hourButton_, &QPushButton::toggled, this, [this](bool on) {
        if (on)
            setHistorySize(store::HistoryBucket::Size::Hour);
    });
    connect(dayButton_, &QPushButton::toggled, this, [this](bool on) {
        if (on)
            setHistorySize(store::HistoryBucket::Size::Day);
    });

    samplesSet_ = new QBarSet(tr("Samples"));
    series_ = new QBarSeries;
    series_->setObjectName(QStringLiteral("historySeries"));
    series_->setBarWidth(0.8);
    series_->append(samplesSet_);
    connect(series_, &QBarSeries::hovered, this,
            [this](bool hovered, int index, QBarSet*) { showBucketTip(hovered, index); });

    chart_ = new QChart;
    chart_->setLocalizeNumbers(true);
    chart_->legend()->hide();
    chart_->setBackgroundRoundness(0);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chart_->addSeries(series_);
    // A QCategoryAxis (a value axis with labels at chosen values), not a QBarCategoryAxis, which wants a
    // distinct label under every bar: 48 of them would overlap.
    timeAxis_ = new QCategoryAxis;
    timeAxis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    timeAxis_->setGridLineVisible(false);
    samplesAxis_ = new QValueAxis;
    // "%.0f", not "%i": Qt 6.4 draws no label at all for "%i" when it localizes numbers.
    samplesAxis_->setLabelFormat(QStringLiteral("%.0f"));
    chart_->addAxis(timeAxis_, Qt::AlignBottom);
    chart_->addAxis(samplesAxis_, Qt::AlignLeft);
    series_->attachAxis(timeAxis_);
    series_->attachAxis(samplesAxis_);

    chartView_ = new QChartView(chart_, box);
    chartView_->setObjectName(QStringLiteral("historyChart"));
    chartView_->setRenderHint(QPainter::Antialiasing);
    chartView_->setMinimumHeight(220);

    auto* switches = new QHBoxLayout;
    switches->addWidget(title);
    switches->addStretch(1);
    switches->addWidget(hourButton_);
    switches->addWidget(dayButton_);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(switches);
    layout->addWidget(chartView_, 1);
    return box;
}

void ContributionPanel::setHistorySize(store::HistoryBucket::Size size) {
    QPushButton* button = size == store::HistoryBucket::Size::Hour ? hourButton_ : dayButton_;
    if (!button->isChecked()) {
        // Set from code: the button's toggled signal comes back here.
        button->setChecked(true);
        return;
    }
    historySize_ = size;
    problem_->hide();
    readHistory(true);
}

void ContributionPanel::refresh() {
    problem_->hide();
    readTotals();
    readHistory(false);
}

void ContributionPanel::readTotals() {
    store::ContributionTotals totals;
    lastBatchShare_.reset();
    try {
        totals = engine_.totals();
        const auto newest = engine_.lastEpochs(1);
        if (!newest.empty())
            lastBatchShare_ = newest.back().batchShare;
    } catch (const std::exception& error) {
        showProblem(tr("The contribution totals could not be read"), error.what());
    }
    samplesValue_->setText(Figures::count(static_cast<double>(totals.samples)));
    tokensValue_->setText(Figures::count(static_cast<double>(totals.tokens)));
    computeHoursValue_->setText(computeHours(totals.computeHours));
    epochsValue_->setText(Figures::count(static_cast<double>(totals.epochsJoined)));
    showShare();
}

void ContributionPanel::showShare() {
    double share = 0.0;
    if (lastBatchShare_) {
        share = *lastBatchShare_;
    } else if (const auto snapshot = engine_.snapshot(); snapshot && snapshot->batchSamples > 0) {
        // No epoch completed yet: this peer's part of the batch in progress is the best estimate.
        share = std::clamp(static_cast<double>(snapshot->localSamples) / snapshot->batchSamples, 0.0, 1.0);
    }
    batchShareValue_->setText(Figures::percent(share));
}

void ContributionPanel::readHistory(bool force) {
    const bool hours = historySize_ == store::HistoryBucket::Size::Hour;
    const int wanted = hours ? kHourBuckets : kDayBuckets;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // A bucket more than wanted (a day can be 25 hours long), then only the newest `wanted` are kept.
    const qint64 reach = (wanted + 1) * (hours ? kHourMs : kDayMs);
    std::vector<store::HistoryBucket> buckets;
    try {
        buckets = engine_.history(std::max<qint64>(0, now - reach), now + 1, historySize_, chartZone());
        if (buckets.size() > static_cast<std::size_t>(wanted))
            buckets.erase(buckets.begin(), buckets.end() - wanted);
    } catch (const std::exception& error) {
        showProblem(tr("The contribution history could not be read"), error.what());
    }
    // Transfer samples change the ledger every few seconds without touching these buckets.
    if (!force && buckets == buckets_)
        return;
    buckets_ = std::move(buckets);
    showBuckets();
}

void ContributionPanel::showBuckets() {
    const bool hours = historySize_ == store::HistoryBucket::Size::Hour;
    const QTimeZone zone = chartZone();
    const QLocale locale;
    const int count = static_cast<int>(buckets_.size());

    QList<qreal> samples;
    qint64 most = 0;
    qint64 total = 0;
    samples.reserve(count);
    for (const store::HistoryBucket& bucket : buckets_) {
        samples << static_cast<qreal>(bucket.samples);
        most = std::max(most, bucket.samples);
        total += bucket.samples;
    }
    samplesSet_->remove(0, samplesSet_->count());
    samplesSet_->append(samples);

    for (const QString& label : timeAxis_->categoriesLabels())
        timeAxis_->remove(label);
    timeAxis_->setStartValue(-0.5);
    for (int i = 0; i < count; ++i) {
        const QDateTime start = QDateTime::fromMSecsSinceEpoch(buckets_[i].startMs, zone);
        if (hours && start.time().hour() % kHourLabelStep == 0)
            timeAxis_->append(locale.toString(start, QStringLiteral("ddd HH:mm")), i);
        else if (!hours && (count - 1 - i) % kDayLabelStep == 0)
            timeAxis_->append(locale.toString(start.date(), QStringLiteral("d MMM")), i);
    }
    timeAxis_->setRange(-0.5, std::max(count, 1) - 0.5);
    // Whole samples on a "%.0f" axis: a tick must stand for at least one sample, or neighbouring labels read
    // alike (an empty chart's axis read "1, 1, 1, 0, 0").
    const qreal wholeTicks = samplesAxis_->tickCount() - 1;
    const qreal top = static_cast<qreal>(most) * 1.1;
    samplesAxis_->setRange(0, std::max(top, wholeTicks));
    if (top > wholeTicks)
        samplesAxis_->applyNiceNumbers();

    const QString title = hours ? tr("Samples per hour, last 48 hours") : tr("Samples per day, last 30 days");
    chart_->setTitle(total > 0 ? title
                               : (hours ? tr("No samples contributed in the last 48 hours")
                                        : tr("No samples contributed in the last 30 days")));
    chartView_->setAccessibleName(title);
    chartView_->setAccessibleDescription(
        tr("%1 samples in all; the busiest bar has %2").arg(Figures::count(total), Figures::count(most)));
}

QString ContributionPanel::bucketTitle(const store::HistoryBucket& bucket) const {
    const QTimeZone zone = chartZone();
    const QLocale locale;
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(bucket.startMs, zone);
    if (historySize_ == store::HistoryBucket::Size::Day)
        return locale.toString(start.date(), QLocale::LongFormat);
    const QDateTime end = QDateTime::fromMSecsSinceEpoch(bucket.endMs, zone);
    return tr("%1, %2 – %3")
        .arg(locale.toString(start.date(), QLocale::ShortFormat), Figures::clock(start.time()),
             Figures::clock(end.time()));
}

void ContributionPanel::showBucketTip(bool hovered, int index) {
    if (!hovered || index < 0 || index >= static_cast<int>(buckets_.size())) {
        QToolTip::hideText();
        return;
    }
    const store::HistoryBucket& bucket = buckets_[index];
    QToolTip::showText(QCursor::pos(),
                       tr("%1\n%2 samples, %3 tokens\n%4 of compute in %5 epochs")
                           .arg(bucketTitle(bucket), Figures::count(static_cast<double>(bucket.samples)),
                                Figures::count(static_cast<double>(bucket.tokens)),
                                computeHours(bucket.computeHours),
                                Figures::count(static_cast<double>(bucket.epochs))),
                       chartView_);
}

void ContributionPanel::showProblem(const QString& what, const char* why) {
    problem_->setText(tr("%1: %2").arg(what, QString::fromLocal8Bit(why)));
    problem_->show();
}

} // namespace sahaj::ui
