// The bandwidth panel: one bar per recent round with this peer's segment highlighted and its share as a
// figure; the live 5-minute graph keeps one bounded point per snapshot; the longer periods bin the
// ledger's transfer samples (every byte in the period in exactly one bin) and follow the ledger; the
// totals are the session's, the ledger's and today's, the last against the daily quota.
#include "core/store/ContributionLedger.h"
#include "tests/gui/support/PerTestLedgers.h"
#include "tests/gui/support/RecordingEngine.h"
#include "tests/gui/support/WidgetGrab.h"
#include "ui/format/Figures.h"
#include "ui/panels/BandwidthPanel.h"
#include "ui/widgets/RoundShareBars.h"
#include "ui/widgets/SpeedPlotView.h"

#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QProgressBar>
#include <QtTest>

#include <cmath>

using namespace sahaj::testing;
using sahaj::engine::EngineSnapshot;
using sahaj::store::ContributionLedger;
using sahaj::store::EpochContribution;
using sahaj::store::TransferSample;
using sahaj::ui::BandwidthPanel;
using sahaj::ui::Figures;
using sahaj::ui::RoundShareBars;
using sahaj::ui::SpeedPlotView;
using sahaj::ui::TransferBinning;

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr qint64 kHourMs = 60 * kMinuteMs;

QString text(const QWidget& panel, const char* name) {
    const auto* label = panel.findChild<QLabel*>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

bool sameColour(QRgb pixel, const QColor& colour) {
    const QColor seen = QColor::fromRgb(pixel);
    return std::abs(seen.red() - colour.red()) <= 2 && std::abs(seen.green() - colour.green()) <= 2 &&
           std::abs(seen.blue() - colour.blue()) <= 2;
}

} // namespace

class TestBandwidthPanel : public QObject {
    Q_OBJECT

    PerTestLedgers ledgers_;

private Q_SLOTS:

    void drawsOneBarPerRound() {
        RecordingEngine engine(ledgers_.path());
        const EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        engine.show(snapshot);
        BandwidthPanel panel(engine);
        panel.resize(1000, 700);
        RoundShareBars* bars = panel.shareBars();
        QCOMPARE(bars->barCount(), static_cast<int>(snapshot.rounds.size()));
        QVERIFY(!bars->accessibleName().isEmpty());

        const QImage image = bars->grab().toImage();
        for (int r = 0; r < bars->barCount(); ++r) {
            const QRectF bar = bars->barRect(r);
            QVERIFY(!bar.isEmpty());
            const auto& members = snapshot.rounds[static_cast<std::size_t>(r)].members;
            double left = bar.left();
            for (int m = 0; m < static_cast<int>(members.size()); ++m) {
                const QRectF segment = bars->segmentRect(r, m);
                if (members[static_cast<std::size_t>(m)].share == 0.0) {
                    // The client aggregates nothing: no width.
                    QVERIFY(segment.isEmpty());
                    continue;
                }
                QVERIFY(std::abs(segment.left() - left) < 0.01);
                QVERIFY(std::abs(segment.width() - bar.width() * members[static_cast<std::size_t>(m)].share) <
                        0.01);
                left = segment.right();
            }
            // This peer's segment in the strong colour, the others' not.
            QVERIFY(sameColour(image.pixel(bars->segmentRect(r, 0).center().toPoint()),
                               RoundShareBars::selfColour()));
            QVERIFY(!sameColour(image.pixel(bars->segmentRect(r, 1).center().toPoint()),
                                RoundShareBars::selfColour()));
        }

        const QString self = bars->toolTipAt(bars->segmentRect(4, 0).center());
        QVERIFY2(self.contains(QStringLiteral("this computer")) && self.contains(Figures::percent(0.22)) &&
                     self.contains(Figures::shortPeerId(snapshot.peerId)),
                 qPrintable(self));
        const QString other = bars->toolTipAt(bars->segmentRect(4, 1).center());
        QVERIFY2(other.contains(Figures::percent(0.58)) && !other.contains(QStringLiteral("this computer")),
                 qPrintable(other));
        // The round's label lists every member, the client with its nothing.
        const QString round = bars->toolTipAt(QPointF(2, bars->barRect(4).center().y()));
        QVERIFY2(round.contains(QStringLiteral("client")) && round.contains(Figures::percent(0.0)) &&
                     round.contains(Figures::count(41)),
                 qPrintable(round));

        // Twenty rounds, twenty bars; none before the first round.
        EngineSnapshot many = snapshot;
        while (many.rounds.size() < EngineSnapshot::kRecentRounds)
            many.rounds.push_back(many.rounds.back());
        engine.show(many);
        QCOMPARE(bars->barCount(), 20);
        EngineSnapshot none = snapshot;
        none.rounds.clear();
        engine.show(none);
        QCOMPARE(bars->barCount(), 0);
        QVERIFY(!bars->grab().isNull());
    }

    void showsThisPeersShare() {
        RecordingEngine engine(ledgers_.path());
        EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        engine.show(snapshot);
        BandwidthPanel panel(engine);
        // The last round's 0.22, and 0.18..0.22 on average.
        QVERIFY2(text(panel, "selfShare").contains(Figures::percent(0.22)),
                 qPrintable(text(panel, "selfShare")));
        QVERIFY2(text(panel, "selfShare").contains(Figures::percent(0.20)),
                 qPrintable(text(panel, "selfShare")));

        snapshot.rounds.back().members[0].share = 0.31;
        engine.show(snapshot);
        QVERIFY2(text(panel, "selfShare").contains(Figures::percent(0.31)),
                 qPrintable(text(panel, "selfShare")));
        snapshot.rounds.clear();
        engine.show(snapshot);
        QVERIFY(!text(panel, "selfShare").contains(QLatin1Char('%')));
    }

    // Why this computer aggregates nothing, when it does not: the reachability check's verdict.
    void saysWhenThisComputerOnlySends() {
        RecordingEngine engine(ledgers_.path());
        EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        engine.show(snapshot);
        BandwidthPanel panel(engine);
        auto* label = panel.findChild<QLabel*>(QStringLiteral("reachability"));
        QVERIFY(label);
        QVERIFY(label->isHidden()); // not joined: nothing to say

        snapshot.reachability.verdict = sahaj::engine::Reachability::Verdict::BehindNat;
        snapshot.reachability.localAddress = QStringLiteral("192.168.4.2:4600");
        snapshot.reachability.observedAddress = QStringLiteral("203.0.113.7");
        engine.show(snapshot);
        QVERIFY(!label->isHidden());
        QVERIFY2(label->text().startsWith(QLatin1String("Behind NAT: sending only")),
                 qPrintable(label->text()));
        QVERIFY2(label->text().contains(QLatin1String("203.0.113.7")), qPrintable(label->text()));

        snapshot.reachability.verdict = sahaj::engine::Reachability::Verdict::Unreachable;
        snapshot.reachability.detail = QStringLiteral("no answer within 3 s");
        engine.show(snapshot);
        QVERIFY2(label->text().contains(QLatin1String("192.168.4.2:4600 (no answer within 3 s)")),
                 qPrintable(label->text()));
    }

    // All time and today count every byte of the ledger's transfer samples (not only the averaging rounds'
    // bytes that epochs record) and the engine's last minute not yet written to them: neither reads less
    // than the session (they read "0 B" beside a session of 44.8 MB, the state download of its first
    // minute).
    void showsSessionTodayAndAllTimeTotals() {
        RecordingEngine engine(ledgers_.path());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        EngineSnapshot snapshot = busySnapshot(now);
        snapshot.unrecordedBytesSent = 12'000'000;
        snapshot.unrecordedBytesReceived = 40'000'000;
        engine.show(snapshot);
        BandwidthPanel panel(engine);
        QCOMPARE(text(panel, "sessionSent"), Figures::bytes(812e6));
        QCOMPARE(text(panel, "sessionReceived"), Figures::bytes(1.24e9));
        QCOMPARE(text(panel, "allTimeSent"), Figures::bytes(12e6));
        QCOMPARE(text(panel, "todayReceived"), Figures::bytes(40e6));

        const qint64 startOfDay = QDateTime::currentDateTime().date().startOfDay().toMSecsSinceEpoch();
        {
            ContributionLedger ledger(ledgers_.path());
            EpochContribution epoch; // its averaging bytes are in the transfer samples already
            epoch.timeMs = now;
            epoch.runId = QStringLiteral("sahajbert-demo");
            epoch.epoch = 1;
            epoch.samples = 100;
            epoch.bytesSent = 70'000'000;
            epoch.role = QStringLiteral("node");
            QVERIFY(ledger.recordEpoch(epoch));
            ledger.recordTransfer({startOfDay, 800'000'000, 1'200'000'000});
            ledger.recordTransfer({startOfDay - kHourMs, 100'000'000, 5'000'000}); // yesterday
        }
        engine.emitLedgerChanged();
        QCOMPARE(text(panel, "todaySent"), Figures::bytes(812e6));
        QCOMPARE(text(panel, "todayReceived"), Figures::bytes(1.24e9));
        QCOMPARE(text(panel, "allTimeSent"), Figures::bytes(912e6));
        QCOMPARE(text(panel, "allTimeReceived"), Figures::bytes(1.245e9));
        QVERIFY2(text(panel, "todayQuota").contains(Figures::bytes(2.052e9)),
                 qPrintable(text(panel, "todayQuota")));

        // The minute is written: the ledger holds it, and the snapshot no longer does.
        {
            ContributionLedger ledger(ledgers_.path());
            ledger.recordTransfer({now, 12'000'000, 40'000'000});
        }
        snapshot.unrecordedBytesSent = snapshot.unrecordedBytesReceived = 0;
        engine.show(snapshot);
        engine.emitLedgerChanged();
        QCOMPARE(text(panel, "todaySent"), Figures::bytes(812e6));
        QCOMPARE(text(panel, "allTimeReceived"), Figures::bytes(1.245e9));
    }

    void binsTheLedgerSamples_data() {
        QTest::addColumn<int>("range");
        QTest::addColumn<qint64>("spacingMs");
        QTest::addColumn<qint64>("binMs");
        QTest::newRow("1 h") << static_cast<int>(BandwidthPanel::Range::OneHour) << kMinuteMs << kMinuteMs;
        QTest::newRow("24 h") << static_cast<int>(BandwidthPanel::Range::OneDay) << 7 * kMinuteMs
                              << 5 * kMinuteMs;
    }

    void binsTheLedgerSamples() {
        QFETCH(int, range);
        QFETCH(qint64, spacingMs);
        QFETCH(qint64, binMs);
        const qint64 rangeMs = BandwidthPanel::rangeMs(static_cast<BandwidthPanel::Range>(range));
        RecordingEngine engine(ledgers_.path());
        // Minute-aligned samples from a little past the period's start to two minutes before its end, and
        // some outside it: the test holds whether or not a minute turns while it runs.
        const qint64 minute = QDateTime::currentMSecsSinceEpoch() / kMinuteMs * kMinuteMs;
        std::vector<TransferSample> samples;
        for (qint64 t = minute - 2 * kMinuteMs; t > minute - rangeMs + kMinuteMs; t -= spacingMs)
            samples.push_back(
                {t, 1'000 + (t / kMinuteMs) % 977 * 1'000, 3'000 + (t / kMinuteMs) % 613 * 500});
        std::vector<TransferSample> outside{{minute - rangeMs - 10 * kMinuteMs, 5'000'000'000, 1},
                                            {minute - 3 * rangeMs, 7'000'000'000, 1}};
        {
            ContributionLedger ledger(ledgers_.path());
            for (const TransferSample& sample : samples)
                ledger.recordTransfer(sample);
            for (const TransferSample& sample : outside)
                ledger.recordTransfer(sample);
        }
        BandwidthPanel panel(engine);
        panel.setRange(static_cast<BandwidthPanel::Range>(range));
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("rangeBox"))->currentIndex(), range);

        const std::vector<TransferBinning::Bin>& bins = panel.transferBins();
        QVERIFY(!bins.empty());
        QVERIFY(bins.size() <= static_cast<std::size_t>(BandwidthPanel::kMaxPlotPoints));
        QCOMPARE(bins.back().startMs + bins.back().lengthMs - bins.front().startMs, rangeMs);
        qint64 up = 0;
        qint64 down = 0;
        for (std::size_t i = 0; i < bins.size(); ++i) {
            QVERIFY(bins[i].lengthMs == binMs || (i + 1 == bins.size() && bins[i].lengthMs < binMs));
            if (i > 0)
                QCOMPARE(bins[i].startMs, bins[i - 1].startMs + bins[i - 1].lengthMs);
            // Each bin holds exactly the samples of its own minutes.
            qint64 binUp = 0;
            qint64 binDown = 0;
            for (const TransferSample& sample : samples) {
                if (sample.timeMs >= bins[i].startMs && sample.timeMs < bins[i].startMs + bins[i].lengthMs) {
                    binUp += sample.upBytes;
                    binDown += sample.downBytes;
                }
            }
            QCOMPARE(bins[i].upBytes, binUp);
            QCOMPARE(bins[i].downBytes, binDown);
            up += bins[i].upBytes;
            down += bins[i].downBytes;
        }
        // Every byte of the period, none from outside it.
        qint64 expectedUp = 0;
        qint64 expectedDown = 0;
        for (const TransferSample& sample : samples) {
            expectedUp += sample.upBytes;
            expectedDown += sample.downBytes;
        }
        QCOMPARE(up, expectedUp);
        QCOMPARE(down, expectedDown);

        // The graph draws the bins' mean rates.
        const std::vector<SpeedPlotView::Point>& points = panel.speedPlot()->points();
        QCOMPARE(points.size(), bins.size());
        for (std::size_t i = 0; i < bins.size(); ++i)
            QVERIFY(std::abs(points[i].upBytesPerSecond - bins[i].upBytes * 1000.0 / bins[i].lengthMs) <
                    1e-6);

        // A new sample shows once the ledger says it changed.
        {
            ContributionLedger ledger(ledgers_.path());
            ledger.recordTransfer({minute - 3 * kMinuteMs + 17, 123'456, 0});
        }
        engine.emitLedgerChanged();
        qint64 after = 0;
        for (const TransferBinning::Bin& bin : panel.transferBins())
            after += bin.upBytes;
        QCOMPARE(after, expectedUp + 123'456);
    }

    void keepsTheLiveRatesOfFiveMinutes() {
        RecordingEngine engine(ledgers_.path());
        const qint64 start = QDateTime::currentMSecsSinceEpoch();
        EngineSnapshot snapshot = busySnapshot(start);
        engine.show(snapshot);
        BandwidthPanel panel(engine);
        QCOMPARE(panel.range(), BandwidthPanel::Range::FiveMinutes);
        for (int i = 1; i < 20; ++i) {
            snapshot.timeMs = start + i * 1000;
            snapshot.uploadBytesPerSecond = 1000.0 * i;
            engine.show(snapshot);
        }
        SpeedPlotView* plot = panel.speedPlot();
        QCOMPARE(plot->points().size(), std::size_t{20});
        QCOMPARE(plot->points().back().upBytesPerSecond, 19'000.0);
        QCOMPARE(plot->toMs(), start + 19'000);
        QCOMPARE(plot->toMs() - plot->fromMs(), BandwidthPanel::rangeMs(BandwidthPanel::Range::FiveMinutes));
        QVERIFY(panel.transferBins().empty());
        // The same snapshot twice is one point.
        engine.show(snapshot);
        QCOMPARE(plot->points().size(), std::size_t{20});

        // Ten minutes of snapshots: only the last five minutes are kept.
        for (int i = 20; i < 620; ++i) {
            snapshot.timeMs = start + i * 1000;
            engine.show(snapshot);
        }
        QVERIFY(plot->points().size() <= BandwidthPanel::kMaxLivePoints);
        QVERIFY(plot->points().front().timeMs >= plot->fromMs());
        QCOMPARE(plot->points().size(), std::size_t{301});

        // Switching to a ledger period and back keeps the live points.
        panel.setRange(BandwidthPanel::Range::SixHours);
        QVERIFY(!panel.transferBins().empty());
        panel.setRange(BandwidthPanel::Range::FiveMinutes);
        QCOMPARE(plot->points().size(), std::size_t{301});
    }

    void comparesTodayWithTheQuota() {
        RecordingEngine engine(ledgers_.path());
        const qint64 startOfDay = QDateTime::currentDateTime().date().startOfDay().toMSecsSinceEpoch();
        {
            ContributionLedger ledger(ledgers_.path());
            ledger.recordTransfer({startOfDay, 300'000'000, 200'000'000});
            ledger.recordTransfer({startOfDay - kMinuteMs, 900'000'000, 900'000'000}); // yesterday
        }
        engine.emitLedgerChanged();
        BandwidthPanel panel(engine);
        auto* bar = panel.findChild<QProgressBar*>(QStringLiteral("quotaBar"));
        QVERIFY(bar);
        QCOMPARE(text(panel, "todaySent"), Figures::bytes(300e6));
        QCOMPARE(text(panel, "todayReceived"), Figures::bytes(200e6));
        QVERIFY2(text(panel, "todayQuota").contains(Figures::bytes(500e6)) &&
                     text(panel, "todayQuota").contains(QStringLiteral("no daily quota")),
                 qPrintable(text(panel, "todayQuota")));
        QVERIFY(bar->isHidden());

        panel.setDailyQuotaMB(2000);
        QVERIFY(!bar->isHidden());
        QCOMPARE(bar->value(), 250);
        QVERIFY2(text(panel, "todayQuota").contains(Figures::bytes(500e6)) &&
                     text(panel, "todayQuota").contains(Figures::bytes(2e9)) &&
                     text(panel, "todayQuota").contains(Figures::percent(0.25)),
                 qPrintable(text(panel, "todayQuota")));

        panel.setDailyQuotaMB(400);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY2(text(panel, "todayQuota").contains(QStringLiteral("reached")),
                 qPrintable(text(panel, "todayQuota")));

        panel.setDailyQuotaMB(0);
        QVERIFY(bar->isHidden());
    }

    void rendersTheBusySnapshot() {
        RecordingEngine engine(ledgers_.path());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 startOfDay = QDateTime::currentDateTime().date().startOfDay().toMSecsSinceEpoch();
        {
            ContributionLedger ledger(ledgers_.path());
            ledger.recordTransfer({startOfDay, 1'300'000'000, 2'100'000'000});
        }
        EngineSnapshot snapshot = busySnapshot(now - 300'000);
        BandwidthPanel panel(engine);
        panel.setDailyQuotaMB(5000);
        // Five minutes of snapshots with rates that rise and fall, as an averaging round makes them.
        for (int i = 0; i <= 300; ++i) {
            snapshot.timeMs = now - 300'000 + i * 1000;
            const double wave = std::sin(i / 9.0);
            snapshot.uploadBytesPerSecond = 1.2e6 + 0.8e6 * wave * wave;
            snapshot.downloadBytesPerSecond = 1.6e6 + 0.9e6 * std::abs(std::cos(i / 13.0));
            engine.show(snapshot);
        }
        panel.resize(1000, 700);
        const QImage image = panel.grab().toImage();
        QCOMPARE(image.size(), QSize(1000, 700));
        const QImage plot = panel.speedPlot()->grab().toImage();
        int upload = 0;
        int download = 0;
        for (int y = 0; y < plot.height(); ++y) {
            for (int x = 0; x < plot.width(); ++x) {
                upload += sameColour(plot.pixel(x, y), SpeedPlotView::uploadColour());
                download += sameColour(plot.pixel(x, y), SpeedPlotView::downloadColour());
            }
        }
        // Both lines run across the plot.
        QVERIFY2(upload > plot.width() / 2 && download > plot.width() / 2,
                 qPrintable(QStringLiteral("%1 %2").arg(upload).arg(download)));
        QVERIFY(WidgetGrab::saveIfRequested(image, QStringLiteral("bandwidth.png")));
    }
};

QTEST_MAIN(TestBandwidthPanel)
#include "tst_bandwidth_panel.moc"
