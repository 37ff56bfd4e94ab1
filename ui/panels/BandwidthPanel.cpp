#include "ui/panels/BandwidthPanel.h"

#include "ui/Durations.h"
#include "ui/ReachabilityText.h"
#include "ui/format/Figures.h"
#include "ui/widgets/RoundShareBars.h"

#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include <cmath>
#include <exception>

namespace sahaj::ui {

namespace {

QLabel* figureLabel(QWidget* parent, const char* name) {
    auto* label = new QLabel(parent);
    label->setObjectName(QString::fromLatin1(name));
    label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QLabel* headingLabel(QWidget* parent, const QString& text) {
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return label;
}

} // namespace

BandwidthPanel::BandwidthPanel(engine::EngineFacade& engine, QWidget* parent)
    : QWidget(parent), engine_(engine), bars_(new RoundShareBars(this)), selfShare_(new QLabel(this)),
      reachability_(new QLabel(this)), rangeBox_(new QComboBox(this)), plot_(new SpeedPlotView(this)),
      sessionSent_(figureLabel(this, "sessionSent")), sessionReceived_(figureLabel(this, "sessionReceived")),
      allTimeSent_(figureLabel(this, "allTimeSent")), allTimeReceived_(figureLabel(this, "allTimeReceived")),
      todaySent_(figureLabel(this, "todaySent")), todayReceived_(figureLabel(this, "todayReceived")),
      todayQuota_(new QLabel(this)), quotaBar_(new QProgressBar(this)), historyProblem_(new QLabel(this)) {
    bars_->setObjectName(QStringLiteral("shareBars"));
    plot_->setObjectName(QStringLiteral("speedPlot"));
    selfShare_->setObjectName(QStringLiteral("selfShare"));
    selfShare_->setWordWrap(true);
    QFont emphasised = selfShare_->font();
    emphasised.setBold(true);
    selfShare_->setFont(emphasised);

    reachability_->setObjectName(QStringLiteral("reachability"));
    reachability_->setWordWrap(true);
    reachability_->setTextFormat(Qt::PlainText);

    auto* rounds = new QGroupBox(tr("Share of the recent rounds"), this);
    auto* roundsLayout = new QVBoxLayout(rounds);
    roundsLayout->addWidget(selfShare_);
    roundsLayout->addWidget(reachability_);
    roundsLayout->addWidget(bars_, 1);

    todayQuota_->setObjectName(QStringLiteral("todayQuota"));
    todayQuota_->setWordWrap(true);
    quotaBar_->setObjectName(QStringLiteral("quotaBar"));
    quotaBar_->setAccessibleName(tr("Today's transfer against the daily quota"));
    quotaBar_->setRange(0, 1000);
    quotaBar_->setVisible(false);
    historyProblem_->setObjectName(QStringLiteral("historyProblem"));
    historyProblem_->setWordWrap(true);
    historyProblem_->setVisible(false);
    auto* totals = new QGroupBox(tr("Totals"), this);
    auto* grid = new QGridLayout(totals);
    grid->addWidget(headingLabel(totals, tr("Sent")), 0, 1);
    grid->addWidget(headingLabel(totals, tr("Received")), 0, 2);
    grid->addWidget(new QLabel(tr("This session"), totals), 1, 0);
    grid->addWidget(sessionSent_, 1, 1);
    grid->addWidget(sessionReceived_, 1, 2);
    grid->addWidget(new QLabel(tr("Today"), totals), 2, 0);
    grid->addWidget(todaySent_, 2, 1);
    grid->addWidget(todayReceived_, 2, 2);
    grid->addWidget(new QLabel(tr("All time"), totals), 3, 0);
    grid->addWidget(allTimeSent_, 3, 1);
    grid->addWidget(allTimeReceived_, 3, 2);
    grid->addWidget(todayQuota_, 4, 0, 1, 3);
    grid->addWidget(quotaBar_, 5, 0, 1, 3);
    grid->addWidget(historyProblem_, 6, 0, 1, 3);
    grid->setRowStretch(7, 1);
    grid->setColumnStretch(0, 1);

    rangeBox_->setObjectName(QStringLiteral("rangeBox"));
    rangeBox_->addItems({tr("5 minutes"), tr("1 hour"), tr("6 hours"), tr("24 hours"), tr("7 days")});
    auto* rangeLabel = new QLabel(tr("&Period:"), this);
    rangeLabel->setBuddy(rangeBox_);
    auto* speed = new QGroupBox(tr("Upload and download speed"), this);
    auto* speedLayout = new QVBoxLayout(speed);
    auto* rangeRow = new QHBoxLayout;
    rangeRow->addWidget(rangeLabel);
    rangeRow->addWidget(rangeBox_);
    rangeRow->addStretch(1);
    speedLayout->addLayout(rangeRow);
    speedLayout->addWidget(plot_, 1);

    auto* top = new QHBoxLayout;
    top->addWidget(rounds, 3);
    top->addWidget(totals, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(speed, 1);

    connect(rangeBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        range_ = static_cast<Range>(std::clamp(index, 0, static_cast<int>(Range::SevenDays)));
        refreshPlot();
    });
    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &BandwidthPanel::onSnapshot);
    connect(&engine_, &engine::EngineFacade::ledgerChanged, this, &BandwidthPanel::refreshHistory);
    onSnapshot();
    refreshHistory();
}

qint64 BandwidthPanel::rangeMs(Range range) {
    switch (range) {
    case Range::FiveMinutes:
        return 5 * kMinuteMs;
    case Range::OneHour:
        return kHourMs;
    case Range::SixHours:
        return 6 * kHourMs;
    case Range::OneDay:
        return 24 * kHourMs;
    case Range::SevenDays:
        return 7 * 24 * kHourMs;
    }
    return kHourMs;
}

void BandwidthPanel::setRange(Range range) {
    rangeBox_->setCurrentIndex(static_cast<int>(range)); // refreshes through currentIndexChanged
}

void BandwidthPanel::setDailyQuotaMB(qint64 mb) {
    quotaMB_ = std::max<qint64>(0, mb);
    showToday();
}

void BandwidthPanel::onSnapshot() {
    const std::shared_ptr<const engine::EngineSnapshot> snapshot = engine_.snapshot();
    std::vector<engine::RoundSummary> rounds = snapshot->rounds;
    if (rounds.size() > engine::EngineSnapshot::kRecentRounds)
        rounds.erase(rounds.begin(), rounds.end() - engine::EngineSnapshot::kRecentRounds);
    bars_->setRounds(std::move(rounds));
    showSelfShare(*snapshot);
    const QString reachability = ReachabilityText::of(snapshot->reachability);
    reachability_->setText(reachability);
    reachability_->setVisible(!reachability.isEmpty());
    sessionSent_->setText(Figures::bytes(static_cast<double>(snapshot->sessionBytesSent)));
    sessionReceived_->setText(Figures::bytes(static_cast<double>(snapshot->sessionBytesReceived)));
    showTotals();

    // One live point per snapshot; a clock set back starts the graph afresh.
    if (snapshot->timeMs > 0) {
        if (!live_.empty() && snapshot->timeMs < live_.back().timeMs)
            live_.clear();
        if (live_.empty() || snapshot->timeMs > live_.back().timeMs)
            live_.push_back(
                {snapshot->timeMs, snapshot->uploadBytesPerSecond, snapshot->downloadBytesPerSecond});
        const qint64 oldest = live_.back().timeMs - rangeMs(Range::FiveMinutes);
        while (live_.size() > kMaxLivePoints || (!live_.empty() && live_.front().timeMs < oldest))
            live_.pop_front();
    }
    if (range_ == Range::FiveMinutes)
        refreshPlot();
}

void BandwidthPanel::showSelfShare(const engine::EngineSnapshot& snapshot) {
    double last = 0.0;
    double sum = 0.0;
    int count = 0;
    for (auto round = snapshot.rounds.rbegin(); round != snapshot.rounds.rend(); ++round) {
        for (const engine::RoundShare& member : round->members) {
            if (!member.self)
                continue;
            const double share = std::isfinite(member.share) ? std::clamp(member.share, 0.0, 1.0) : 0.0;
            if (count == 0)
                last = share;
            sum += share;
            ++count;
        }
    }
    if (count == 0) {
        selfShare_->setText(snapshot.rounds.empty() ? tr("No averaging round yet.")
                                                    : tr("This computer took no part in the recent rounds."));
        return;
    }
    QString text = tr("This computer's share of the last round: %1").arg(Figures::percent(last));
    if (count > 1)
        text += QStringLiteral(" · ") + tr("average over the last %1 rounds: %2")
                                            .arg(Figures::count(count), Figures::percent(sum / count));
    selfShare_->setText(text);
}

void BandwidthPanel::refreshHistory() {
    try {
        ledgerAllTime_ = engine_.transferSince(0);
        const qint64 startOfDay = QDateTime::currentDateTime().date().startOfDay().toMSecsSinceEpoch();
        ledgerToday_ = engine_.transferSince(startOfDay);
        historyProblem_->setVisible(false);
    } catch (const std::exception& error) {
        // The figures above keep their last values; the reason is shown instead of a crash.
        historyProblem_->setText(
            tr("The transfer history cannot be read: %1").arg(QString::fromUtf8(error.what())));
        historyProblem_->setVisible(true);
    }
    showTotals();
    if (range_ != Range::FiveMinutes)
        refreshPlot();
}

void BandwidthPanel::showTotals() {
    // Every byte, averaging or not (a state download, the DHT), as the ledger's transfer samples count
    // them, and the last minute's that the engine has not written yet.
    const std::shared_ptr<const engine::EngineSnapshot> snapshot = engine_.snapshot();
    const auto up = static_cast<qint64>(snapshot->unrecordedBytesSent);
    const auto down = static_cast<qint64>(snapshot->unrecordedBytesReceived);
    todaySent_->setText(Figures::bytes(static_cast<double>(ledgerToday_.upBytes + up)));
    todayReceived_->setText(Figures::bytes(static_cast<double>(ledgerToday_.downBytes + down)));
    allTimeSent_->setText(Figures::bytes(static_cast<double>(ledgerAllTime_.upBytes + up)));
    allTimeReceived_->setText(Figures::bytes(static_cast<double>(ledgerAllTime_.downBytes + down)));
    todayBytes_ = ledgerToday_.upBytes + ledgerToday_.downBytes + up + down;
    showToday();
}

void BandwidthPanel::showToday() {
    const double used = static_cast<double>(todayBytes_);
    if (quotaMB_ <= 0) {
        todayQuota_->setText(tr("Today's transfer: %1, no daily quota").arg(Figures::bytes(used)));
        quotaBar_->setVisible(false);
        return;
    }
    const double quota = static_cast<double>(quotaMB_) * kBytesPerMB;
    const double fraction = used / quota;
    todayQuota_->setText(
        fraction >= 1.0 ? tr("Today's transfer: %1 of the %2 daily quota: quota reached")
                              .arg(Figures::bytes(used), Figures::bytes(quota))
                        : tr("Today's transfer: %1 of the %2 daily quota (%3)")
                              .arg(Figures::bytes(used), Figures::bytes(quota), Figures::percent(fraction)));
    quotaBar_->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000.0)));
    quotaBar_->setFormat(Figures::percent(fraction));
    quotaBar_->setVisible(true);
}

void BandwidthPanel::refreshPlot() {
    if (range_ == Range::FiveMinutes) {
        bins_.clear();
        const qint64 to = live_.empty() ? QDateTime::currentMSecsSinceEpoch() : live_.back().timeMs;
        plot_->setSeries(std::vector<SpeedPlotView::Point>(live_.begin(), live_.end()),
                         to - rangeMs(Range::FiveMinutes), to);
        return;
    }
    // The period ends with the last whole minute: the minute under way has no sample yet, and a bin for it
    // would show a drop to zero that is not there.
    const qint64 to = QDateTime::currentMSecsSinceEpoch() / kMinuteMs * kMinuteMs;
    const qint64 from = to - rangeMs(range_);
    std::vector<store::TransferSample> samples;
    try {
        samples = engine_.transferSamples(from, to);
    } catch (const std::exception& error) {
        historyProblem_->setText(
            tr("The transfer history cannot be read: %1").arg(QString::fromUtf8(error.what())));
        historyProblem_->setVisible(true);
    }
    bins_ = TransferBinning::bin(samples, from, to, kMaxPlotPoints);
    std::vector<SpeedPlotView::Point> points;
    points.reserve(bins_.size());
    for (const TransferBinning::Bin& bin : bins_)
        points.push_back({bin.startMs + bin.lengthMs / 2, bin.upBytesPerSecond(), bin.downBytesPerSecond()});
    plot_->setSeries(std::move(points), from, to);
}

} // namespace sahaj::ui
