// The contribution panel over a real ledger: the figures are the ledger's totals, the share of the last
// batch is the newest epoch's (the live snapshot's before any epoch), the hour and day charts have one bar
// per local hour or day holding the samples of the epochs in it, and an empty ledger shows zeros.
#include "core/store/ContributionLedger.h"
#include "tests/gui/support/PerTestLedgers.h"
#include "tests/gui/support/RecordingEngine.h"
#include "tests/gui/support/WidgetGrab.h"
#include "ui/format/Figures.h"
#include "ui/panels/ContributionPanel.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QLabel>
#include <QPushButton>
#include <QValueAxis>
#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace sahaj::testing;
using sahaj::store::ContributionLedger;
using sahaj::store::EpochContribution;
using sahaj::store::HistoryBucket;
using sahaj::ui::ContributionPanel;
using sahaj::ui::Figures;

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr qint64 kHourMs = 60 * kMinuteMs;
constexpr qint64 kDayMs = 24 * kHourMs;

EpochContribution epochAt(qint64 timeMs, qint64 epoch, qint64 samples, double share) {
    EpochContribution e;
    e.timeMs = timeMs;
    e.runId = QStringLiteral("sahajbert-demo");
    e.epoch = epoch;
    e.samples = samples;
    e.tokens = samples * 128;
    e.computeSeconds = static_cast<double>(samples) * 0.5;
    e.batchShare = share;
    e.bytesSent = 1000;
    e.bytesReceived = 2000;
    e.groupSize = 3;
    e.role = QStringLiteral("node");
    return e;
}

QString figure(const ContributionPanel& panel, const char* name) {
    const auto* label = panel.findChild<QLabel*>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

QString hours(double value) {
    return QStringLiteral("%1 h").arg(Figures::decimal(value, 2));
}

QBarSet* historyBars(const ContributionPanel& panel) {
    const auto* view = panel.findChild<QChartView*>(QStringLiteral("historyChart"));
    if (!view || view->chart()->series().size() != 1)
        return nullptr;
    auto* series = qobject_cast<QBarSeries*>(view->chart()->series().front());
    return series && series->count() == 1 ? series->barSets().front() : nullptr;
}

// The samples of `epochs` inside each bucket: what each bar must show.
QList<qreal> expectedBars(const std::vector<HistoryBucket>& buckets,
                          const std::vector<EpochContribution>& epochs) {
    QList<qreal> bars;
    for (const HistoryBucket& bucket : buckets) {
        qint64 samples = 0;
        for (const EpochContribution& e : epochs) {
            if (e.timeMs >= bucket.startMs && e.timeMs < bucket.endMs)
                samples += e.samples;
        }
        bars << static_cast<qreal>(samples);
    }
    return bars;
}

QList<qreal> shownBars(const ContributionPanel& panel) {
    QList<qreal> bars;
    if (QBarSet* set = historyBars(panel)) {
        for (int i = 0; i < set->count(); ++i)
            bars << set->at(i);
    }
    return bars;
}

} // namespace

class TestContributionPanel : public QObject {
    Q_OBJECT

    PerTestLedgers ledgers_;

private Q_SLOTS:
    void emptyLedgerShowsZeros() {
        RecordingEngine engine(ledgers_.path());
        ContributionPanel panel(engine);
        const QString zero = Figures::count(0);
        QCOMPARE(figure(panel, "samplesValue"), zero);
        QCOMPARE(figure(panel, "tokensValue"), zero);
        QCOMPARE(figure(panel, "epochsValue"), zero);
        QCOMPARE(figure(panel, "computeHoursValue"), hours(0.0));
        QCOMPARE(figure(panel, "batchShareValue"), Figures::percent(0.0));

        QCOMPARE(panel.historyBuckets().size(), std::size_t(ContributionPanel::kHourBuckets));
        const QList<qreal> bars = shownBars(panel);
        QCOMPARE(bars.size(), ContributionPanel::kHourBuckets);
        QVERIFY(std::all_of(bars.begin(), bars.end(), [](qreal v) { return v == 0.0; }));
        QVERIFY(!panel.findChild<QLabel*>(QStringLiteral("historyProblem"))->isVisibleTo(&panel));

        // The samples axis of an empty chart reads distinct whole numbers.
        const auto* axis = qobject_cast<const QValueAxis*>(
            panel.findChild<QChartView*>()->chart()->axes(Qt::Vertical).front());
        QVERIFY(axis);
        QStringList labels;
        for (int i = 0; i < axis->tickCount(); ++i)
            labels << QString::asprintf("%.0f", axis->min() + i * (axis->max() - axis->min()) /
                                                                  (axis->tickCount() - 1));
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
    }

    void totalsMatchTheLedger() {
        RecordingEngine engine(ledgers_.path());
        ContributionPanel panel(engine);
        ContributionLedger ledger(ledgers_.path());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const std::vector<EpochContribution> epochs = {epochAt(now - 3 * kDayMs, 7, 1200, 0.25),
                                                       epochAt(now - 2 * kHourMs, 8, 1300, 0.3),
                                                       epochAt(now - kMinuteMs, 9, 1536, 0.375)};
        for (const EpochContribution& e : epochs)
            QVERIFY(ledger.recordEpoch(e));
        // Nothing read until the engine says the ledger changed.
        QCOMPARE(figure(panel, "samplesValue"), Figures::count(0));
        engine.emitLedgerChanged();

        QCOMPARE(figure(panel, "samplesValue"), Figures::count(1200 + 1300 + 1536));
        QCOMPARE(figure(panel, "tokensValue"), Figures::count((1200 + 1300 + 1536) * 128));
        QCOMPARE(figure(panel, "epochsValue"), Figures::count(3));
        QCOMPARE(figure(panel, "computeHoursValue"), hours((1200 + 1300 + 1536) * 0.5 / 3600.0));
        QCOMPARE(figure(panel, "batchShareValue"), Figures::percent(0.375));
        QCOMPARE(figure(panel, "samplesValue"), Figures::count(static_cast<double>(engine.totals().samples)));
    }

    void shareFallsBackOnTheSnapshotBeforeAnyEpoch() {
        RecordingEngine engine(ledgers_.path());
        ContributionPanel panel(engine);
        sahaj::engine::EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        snapshot.localSamples = 512;
        snapshot.batchSamples = 2048;
        engine.show(snapshot);
        QCOMPARE(figure(panel, "batchShareValue"), Figures::percent(0.25));

        // Once an epoch is in the ledger, its share is the one shown, whatever the batch in progress.
        ContributionLedger ledger(ledgers_.path());
        QVERIFY(ledger.recordEpoch(epochAt(QDateTime::currentMSecsSinceEpoch(), 42, 100, 0.125)));
        engine.emitLedgerChanged();
        QCOMPARE(figure(panel, "batchShareValue"), Figures::percent(0.125));
        engine.show(snapshot);
        QCOMPARE(figure(panel, "batchShareValue"), Figures::percent(0.125));
    }

    void hourAndDayCharts() {
        RecordingEngine engine(ledgers_.path());
        ContributionPanel panel(engine);
        ContributionLedger ledger(ledgers_.path());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const std::vector<EpochContribution> epochs = {
            epochAt(now - 40 * kDayMs, 1, 9000, 0.5), // older than both charts
            epochAt(now - 3 * kDayMs, 2, 700, 0.5),   // in the day chart only
            epochAt(now - 5 * kHourMs, 3, 300, 0.5), epochAt(now - 5 * kHourMs + kMinuteMs, 4, 20, 0.5),
            epochAt(now - 30 * kMinuteMs, 5, 55, 0.5)};
        for (const EpochContribution& e : epochs)
            QVERIFY(ledger.recordEpoch(e));
        engine.emitLedgerChanged();
        const qint64 after = QDateTime::currentMSecsSinceEpoch();

        QCOMPARE(panel.historySize(), HistoryBucket::Size::Hour);
        std::vector<HistoryBucket> buckets = panel.historyBuckets();
        QCOMPARE(buckets.size(), std::size_t(ContributionPanel::kHourBuckets));
        for (std::size_t i = 0; i < buckets.size(); ++i) {
            QCOMPARE(buckets[i].endMs - buckets[i].startMs, kHourMs);
            if (i > 0)
                QCOMPARE(buckets[i].startMs, buckets[i - 1].endMs);
        }
        // The newest bar is the current hour.
        QVERIFY(buckets.back().startMs <= after && buckets.back().endMs > now);
        QCOMPARE(shownBars(panel), expectedBars(buckets, epochs));
        const QList<qreal> hourBars = shownBars(panel);
        QCOMPARE(std::accumulate(hourBars.begin(), hourBars.end(), 0.0), 300.0 + 20.0 + 55.0);

        // Switched from the keyboard, as a user without a mouse would.
        auto* dayButton = panel.findChild<QPushButton*>(QStringLiteral("dayButton"));
        QVERIFY(dayButton);
        QTest::keyClick(dayButton, Qt::Key_Space);
        QCOMPARE(panel.historySize(), HistoryBucket::Size::Day);
        buckets = panel.historyBuckets();
        QCOMPARE(buckets.size(), std::size_t(ContributionPanel::kDayBuckets));
        for (std::size_t i = 0; i < buckets.size(); ++i) {
            // 23 or 25 hours where daylight saving time begins or ends.
            QVERIFY(qAbs(buckets[i].endMs - buckets[i].startMs - kDayMs) <= kHourMs);
            if (i > 0)
                QCOMPARE(buckets[i].startMs, buckets[i - 1].endMs);
        }
        QVERIFY(buckets.back().startMs <= after && buckets.back().endMs > now);
        QCOMPARE(shownBars(panel), expectedBars(buckets, epochs));
        const QList<qreal> dayBars = shownBars(panel);
        QCOMPARE(std::accumulate(dayBars.begin(), dayBars.end(), 0.0), 700.0 + 300.0 + 20.0 + 55.0);

        // And back, from code.
        panel.setHistorySize(HistoryBucket::Size::Hour);
        QVERIFY(panel.findChild<QPushButton*>(QStringLiteral("hourButton"))->isChecked());
        QCOMPARE(shownBars(panel).size(), ContributionPanel::kHourBuckets);
    }

    void unreadableLedgerIsReportedNotThrown() {
        RecordingEngine engine(ledgers_.path());
        ContributionPanel panel(engine);
        auto* problem = panel.findChild<QLabel*>(QStringLiteral("historyProblem"));
        QVERIFY(problem && !problem->isVisibleTo(&panel));
        {
            // Another program broke the file under the engine's feet.
            ContributionLedger ledger(ledgers_.path());
            ledger.database().exec("DROP TABLE epoch_contribution");
        }
        engine.emitLedgerChanged();
        QVERIFY(problem->isVisibleTo(&panel));
        QVERIFY(!problem->text().isEmpty());
        QCOMPARE(figure(panel, "samplesValue"), Figures::count(0));
        QVERIFY(panel.historyBuckets().empty());
        QVERIFY(shownBars(panel).isEmpty());
        panel.setHistorySize(HistoryBucket::Size::Day);
        QVERIFY(problem->isVisibleTo(&panel));
    }

    void rendersSomething() {
        RecordingEngine engine(ledgers_.path());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        {
            ContributionLedger ledger(ledgers_.path());
            for (int i = 0; i < 60; ++i)
                QVERIFY(ledger.recordEpoch(
                    epochAt(now - i * 47 * kMinuteMs, 100 - i, 400 + (i * 37) % 300, 0.2)));
        }
        engine.show(busySnapshot(now));
        ContributionPanel panel(engine);
        const QImage image = WidgetGrab::ofShown(panel);
        QCOMPARE(image.size(), QSize(1000, 700));
        // Not one flat colour: text and bars were drawn.
        const int differing = WidgetGrab::pixelsUnlikeCorner(image);
        QVERIFY2(differing > 500, qPrintable(QString::number(differing)));
        QVERIFY(WidgetGrab::saveIfRequested(image, QStringLiteral("contribution.png")));
        if (WidgetGrab::requested()) {
            panel.setHistorySize(HistoryBucket::Size::Day);
            QCoreApplication::processEvents();
            QVERIFY(
                WidgetGrab::saveIfRequested(panel.grab().toImage(), QStringLiteral("contribution-days.png")));
        }
    }
};

QTEST_MAIN(TestContributionPanel)
#include "tst_contribution_panel.moc"
