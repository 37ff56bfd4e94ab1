#pragma once

#include "core/engine/EngineFacade.h"
#include "core/store/TransferTotals.h"
#include "ui/widgets/SpeedPlotView.h"
#include "ui/widgets/TransferBinning.h"

#include <QWidget>

#include <deque>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;

namespace sahaj::ui {

class RoundShareBars;

// The bandwidth share panel: this peer's span of the recent averaging rounds against the other members,
// the upload/download speed graph over a chosen period, and the totals (this session, today against the
// daily quota, all time: the ledger's transfer samples and what the engine has not written to them yet).
//
// The 5-minute graph is drawn from the live rates of the snapshots this panel saw (kept in memory); the
// longer periods from the ledger's one-minute transfer samples, binned to at most kMaxPlotPoints, read
// again whenever the ledger changes.
class BandwidthPanel : public QWidget {
    Q_OBJECT

public:
    enum class Range { FiveMinutes, OneHour, SixHours, OneDay, SevenDays };
    static constexpr int kMaxPlotPoints = 300;
    // One point a second for the five minutes shown, and room for a late snapshot or two.
    static constexpr std::size_t kMaxLivePoints = 330;
    static constexpr qint64 kBytesPerMB = 1'000'000; // decimal, as the figures are shown

    explicit BandwidthPanel(engine::EngineFacade& engine, QWidget* parent = nullptr);

    // Transfer allowed per local day (up and down together), in MB; 0: no quota and no progress bar.
    void setDailyQuotaMB(qint64 mb);
    qint64 dailyQuotaMB() const { return quotaMB_; }

    void setRange(Range range);
    Range range() const { return range_; }
    static qint64 rangeMs(Range range);

    // The bins behind the graph of a ledger period (none for the live 5-minute graph).
    const std::vector<TransferBinning::Bin>& transferBins() const { return bins_; }
    SpeedPlotView* speedPlot() const { return plot_; }
    RoundShareBars* shareBars() const { return bars_; }

private:
    void onSnapshot();
    void refreshHistory();
    void refreshPlot();
    void showSelfShare(const engine::EngineSnapshot& snapshot);
    void showTotals();
    void showToday();

    engine::EngineFacade& engine_;
    Range range_ = Range::FiveMinutes;
    qint64 quotaMB_ = 0;
    qint64 todayBytes_ = 0; // with the unrecorded bytes
    store::TransferTotals ledgerToday_;
    store::TransferTotals ledgerAllTime_;
    std::deque<SpeedPlotView::Point> live_;
    std::vector<TransferBinning::Bin> bins_;

    RoundShareBars* bars_;
    QLabel* selfShare_;
    QLabel* reachability_;
    QComboBox* rangeBox_;
    SpeedPlotView* plot_;
    QLabel* sessionSent_;
    QLabel* sessionReceived_;
    QLabel* allTimeSent_;
    QLabel* allTimeReceived_;
    QLabel* todaySent_;
    QLabel* todayReceived_;
    QLabel* todayQuota_;
    QProgressBar* quotaBar_;
    QLabel* historyProblem_;
};

} // namespace sahaj::ui
