#pragma once

#include "core/store/HistoryBucket.h"

#include <QWidget>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QBarSeries;
class QBarSet;
class QCategoryAxis;
class QChart;
class QChartView;
class QGridLayout;
class QLabel;
class QPushButton;
class QValueAxis;
QT_END_NAMESPACE

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

// What this volunteer has given: samples and tokens contributed, compute hours, epochs joined, its share
// of the last batch, and a bar chart of the samples per hour (last 48 hours) or per day (last 30 days).
// Everything comes from the contribution ledger through the engine's facade, read again whenever the
// ledger changes; only the share falls back on the live snapshot while the ledger holds no epoch.
class ContributionPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kHourBuckets = 48;
    static constexpr int kDayBuckets = 30;

    explicit ContributionPanel(engine::EngineFacade& engine, QWidget* parent = nullptr);

    // Which chart is shown: by hour or by day. Setting it reads the ledger for that chart.
    store::HistoryBucket::Size historySize() const { return historySize_; }
    void setHistorySize(store::HistoryBucket::Size size);
    // The buckets the chart shows, oldest first (the current hour or day last); empty when the ledger
    // could not be read.
    const std::vector<store::HistoryBucket>& historyBuckets() const { return buckets_; }

public Q_SLOTS:
    // Reads the totals and the history from the ledger again.
    void refresh();

private:
    QLabel* addFigure(int column, const QString& caption, const QString& objectName, const QString& help);
    QWidget* buildHistory();
    void readTotals();
    // Redraws the chart when its buckets changed, or always with `force`.
    void readHistory(bool force);
    void showShare();
    void showBuckets();
    void showBucketTip(bool hovered, int index);
    QString bucketTitle(const store::HistoryBucket& bucket) const;
    void showProblem(const QString& what, const char* why);

    engine::EngineFacade& engine_;
    store::HistoryBucket::Size historySize_ = store::HistoryBucket::Size::Hour;
    std::vector<store::HistoryBucket> buckets_;
    // The newest epoch's share of its batch; unset while the ledger holds no epoch.
    std::optional<double> lastBatchShare_;

    QGridLayout* figures_ = nullptr;
    QLabel* samplesValue_ = nullptr;
    QLabel* tokensValue_ = nullptr;
    QLabel* computeHoursValue_ = nullptr;
    QLabel* epochsValue_ = nullptr;
    QLabel* batchShareValue_ = nullptr;
    QLabel* problem_ = nullptr;
    QPushButton* hourButton_ = nullptr;
    QPushButton* dayButton_ = nullptr;
    QChartView* chartView_ = nullptr;
    QChart* chart_ = nullptr;
    QBarSeries* series_ = nullptr;
    QBarSet* samplesSet_ = nullptr;
    QCategoryAxis* timeAxis_ = nullptr;
    QValueAxis* samplesAxis_ = nullptr;
};

} // namespace sahaj::ui
