// The training panel draws the engine's latest snapshot: the figures, the current batch's progress, the
// state line and the loss curve follow each snapshot published; no loss yet shows a sentence instead of
// an empty chart; the loss axis labels have the decimals that tell its ticks apart, however small the
// loss's range; a snapshot with absurd figures is drawn without a crash.
#include "tests/gui/support/PerTestLedgers.h"
#include "tests/gui/support/RecordingEngine.h"
#include "tests/gui/support/WidgetGrab.h"
#include "ui/StateText.h"
#include "ui/format/Figures.h"
#include "ui/panels/TrainingPanel.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QProgressBar>
#include <QStackedWidget>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace sahaj::testing;
using sahaj::engine::EngineSnapshot;
using sahaj::engine::EngineState;
using sahaj::engine::PauseCause;
using sahaj::ui::Figures;
using sahaj::ui::StateText;
using sahaj::ui::TrainingPanel;

namespace {

QString figure(const TrainingPanel& panel, const char* name) {
    const auto* label = panel.findChild<QLabel*>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

// The loss curve's lines, one per run of consecutive epochs.
QList<QLineSeries*> lossLines(const TrainingPanel& panel) {
    QList<QLineSeries*> lines;
    if (const auto* view = panel.findChild<QChartView*>(QStringLiteral("lossChart")))
        for (QAbstractSeries* series : view->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(series))
                lines << line;
    return lines;
}

// Every point of the loss curve, in order.
QList<QPointF> lossPoints(const TrainingPanel& panel) {
    QList<QPointF> points;
    for (const QLineSeries* line : lossLines(panel))
        points << line->points();
    return points;
}

bool showsLossChart(const TrainingPanel& panel) {
    const auto* stack = panel.findChild<QStackedWidget*>();
    return stack && stack->currentWidget() == panel.findChild<QChartView*>(QStringLiteral("lossChart"));
}

// The labels drawn left of the plot area, top to bottom: the loss axis's tick labels (its title, drawn
// there too, is left out).
QStringList lossAxisLabels(const TrainingPanel& panel) {
    const auto* view = panel.findChild<QChartView*>(QStringLiteral("lossChart"));
    if (!view)
        return {};
    const QRectF plot = view->chart()->plotArea();
    const QString title = view->chart()->axes(Qt::Vertical).front()->titleText();
    QList<const QGraphicsTextItem*> labels;
    for (const QGraphicsItem* item : view->scene()->items()) {
        const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
        if (text && text->isVisible() && text->sceneBoundingRect().right() <= plot.left() &&
            text->toPlainText() != title)
            labels << text;
    }
    std::sort(labels.begin(), labels.end(), [](const QGraphicsTextItem* a, const QGraphicsTextItem* b) {
        return a->sceneBoundingRect().top() < b->sceneBoundingRect().top();
    });
    QStringList texts;
    for (const QGraphicsTextItem* label : labels)
        texts << label->toPlainText();
    return texts;
}

QList<QPointF> pointsOf(const EngineSnapshot& snapshot) {
    QList<QPointF> points;
    for (const auto& point : snapshot.loss)
        points << QPointF(static_cast<qreal>(point.epoch), point.loss);
    return points;
}

} // namespace

class TestTrainingPanel : public QObject {
    Q_OBJECT

    PerTestLedgers ledgers_;

private Q_SLOTS:
    void figuresFollowTheSnapshot() {
        RecordingEngine engine(ledgers_.path());
        TrainingPanel panel(engine);
        const EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        engine.show(snapshot);

        QCOMPARE(figure(panel, "globalEpochValue"), Figures::count(41));
        QCOMPARE(figure(panel, "etaValue"), Figures::duration(37));
        QCOMPARE(figure(panel, "peersValue"), Figures::count(3));
        QCOMPARE(figure(panel, "clientsValue"), Figures::count(1));
        QCOMPARE(figure(panel, "localRateValue"), StateText::samplesPerSecond(21.25));
        QCOMPARE(figure(panel, "collaborationRateValue"), StateText::samplesPerSecond(68.5));
        QCOMPARE(figure(panel, "stateValue"), StateText::state(EngineState::Training));
        const auto* compute = panel.findChild<QLabel*>(QStringLiteral("computeValue"));
        QVERIFY(compute && !compute->isHidden());
        QVERIFY2(compute->text().contains(QStringLiteral("cuda core on cuda:0 (Test GPU)")),
                 qPrintable(compute->text()));
        EngineSnapshot before = snapshot; // the cores are not chosen yet: nothing said
        before.compute.clear();
        engine.show(before);
        QVERIFY(compute->isHidden());
        engine.show(snapshot);

        const auto* progress = panel.findChild<QProgressBar*>(QStringLiteral("batchProgress"));
        QVERIFY(progress);
        QCOMPARE(progress->minimum(), 0);
        QCOMPARE(progress->maximum(), 4096);
        QCOMPARE(progress->value(), 1536);
        QVERIFY2(progress->text().contains(Figures::count(1536)) &&
                     progress->text().contains(Figures::count(4096)) &&
                     progress->text().contains(Figures::percent(1536.0 / 4096.0)),
                 qPrintable(progress->text()));

        QCOMPARE(lossLines(panel).size(), 1);
        QCOMPARE(lossPoints(panel), pointsOf(snapshot));
        QVERIFY(showsLossChart(panel));
    }

    void laterSnapshotUpdatesThePanel() {
        RecordingEngine engine(ledgers_.path());
        TrainingPanel panel(engine);
        EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        engine.show(snapshot);

        snapshot.globalEpoch = 42;
        snapshot.batchSamples = 4000.4;
        snapshot.etaSeconds = -1; // unknown
        snapshot.peersOnline = 7;
        snapshot.localSamplesPerSecond = 3.5;
        snapshot.loss.push_back({42, 4.25});
        engine.show(snapshot);
        QCOMPARE(figure(panel, "globalEpochValue"), Figures::count(42));
        QCOMPARE(figure(panel, "etaValue"), Figures::duration(-1));
        QCOMPARE(figure(panel, "peersValue"), Figures::count(7));
        QCOMPARE(figure(panel, "localRateValue"), StateText::samplesPerSecond(3.5));

        // Paused: the live figures are not shown as if they were current.
        snapshot.etaSeconds = 3;
        snapshot.state = EngineState::Paused;
        snapshot.cause = PauseCause::OnBattery;
        engine.show(snapshot);
        for (const char* live :
             {"etaValue", "peersValue", "clientsValue", "localRateValue", "collaborationRateValue"})
            QCOMPARE(figure(panel, live), QStringLiteral("—"));
        QCOMPARE(figure(panel, "globalEpochValue"), Figures::count(42)); // the last epoch seen stays
        // The pause's reason names the state itself (it read "Paused · Paused: running on battery").
        QCOMPARE(figure(panel, "stateValue"), StateText::cause(PauseCause::OnBattery));
        QCOMPARE(panel.findChild<QProgressBar*>(QStringLiteral("batchProgress"))->value(), 4000);
        QCOMPARE(lossPoints(panel).size(), 42);
        QCOMPARE(lossPoints(panel).at(41), QPointF(42, 4.25));

        // Epochs this peer missed (paused, then caught up by loading a state) are a gap in the curve, not
        // a straight line across them; the curve joins up again when they scroll away.
        snapshot.loss.push_back({72, 3.5});
        snapshot.loss.push_back({73, 3.4});
        engine.show(snapshot);
        QCOMPARE(lossLines(panel).size(), 2);
        QCOMPARE(lossLines(panel).at(1)->points(), (QList<QPointF>{{72, 3.5}, {73, 3.4}}));
        QCOMPARE(lossLines(panel).at(1)->color(), lossLines(panel).at(0)->color());
        snapshot.loss = {{72, 3.5}, {73, 3.4}};
        engine.show(snapshot);
        QCOMPARE(lossLines(panel).size(), 1);
        QCOMPARE(lossPoints(panel), (QList<QPointF>{{72, 3.5}, {73, 3.4}}));
    }

    void noLossShowsASentence() {
        RecordingEngine engine(ledgers_.path());
        TrainingPanel panel(engine);
        // The engine's first snapshot: offline, nothing known.
        QVERIFY(!showsLossChart(panel));
        const auto* empty = panel.findChild<QLabel*>(QStringLiteral("lossEmptyLabel"));
        QVERIFY(empty && !empty->text().isEmpty());
        QCOMPARE(lossPoints(panel).size(), 0);
        QCOMPARE(figure(panel, "stateValue"), StateText::state(EngineState::Offline));
        const auto* progress = panel.findChild<QProgressBar*>(QStringLiteral("batchProgress"));
        QCOMPARE(progress->value(), 0);
        QCOMPARE(progress->text(), TrainingPanel::tr("Batch size not known yet"));

        // A curve that loses its points (another run) goes back to the sentence.
        EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        engine.show(snapshot);
        QVERIFY(showsLossChart(panel));
        snapshot.loss.clear();
        engine.show(snapshot);
        QVERIFY(!showsLossChart(panel));
    }

    void lossAxisLabelsDiffer_data() {
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("last");
        QTest::newRow("11.073 to 11.050") << 11.073 << 11.050;
        QTest::newRow("11.073 to 11.069, ticks 0.001 apart") << 11.073 << 11.069;
        QTest::newRow("4.20000 to 4.19996") << 4.2 << 4.19996;
        QTest::newRow("a flat 2.5") << 2.5 << 2.5;
        QTest::newRow("11 to 4") << 11.0 << 4.0;
    }

    // A loss that moves only in its later decimals: each axis label still reads differently from its
    // neighbours, and is a number near the curve.
    void lossAxisLabelsDiffer() {
        QFETCH(double, first);
        QFETCH(double, last);
        RecordingEngine engine(ledgers_.path());
        EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        snapshot.loss.clear();
        for (int i = 0; i <= 23; ++i)
            snapshot.loss.push_back({static_cast<std::uint64_t>(18 + i), first + (last - first) * i / 23.0});
        engine.show(snapshot);
        TrainingPanel panel(engine);
        QVERIFY(!WidgetGrab::ofShown(panel).isNull());

        const QStringList labels = lossAxisLabels(panel);
        const QString shown = labels.join(QStringLiteral(", "));
        QVERIFY2(labels.size() >= 3, qPrintable(shown));
        QVERIFY2(QSet<QString>(labels.begin(), labels.end()).size() == labels.size(), qPrintable(shown));
        // Round ticks may reach a step beyond the curve, not further.
        const double slack = std::max(1.0, std::abs(first - last));
        for (const QString& label : labels) {
            bool number = false;
            const double value = QLocale().toDouble(label, &number);
            QVERIFY2(number && value >= std::min(first, last) - slack &&
                         value <= std::max(first, last) + slack,
                     qPrintable(shown));
        }
    }

    void absurdFiguresAreDrawnSafely() {
        RecordingEngine engine(ledgers_.path());
        TrainingPanel panel(engine);
        EngineSnapshot snapshot = busySnapshot(QDateTime::currentMSecsSinceEpoch());
        snapshot.targetBatchSize = std::numeric_limits<std::uint64_t>::max();
        snapshot.batchSamples = 1e300;
        snapshot.etaSeconds = std::numeric_limits<double>::infinity();
        snapshot.loss = {{1, 5.0},
                         {2, std::numeric_limits<double>::quiet_NaN()},
                         {3, 4.0},
                         {4, std::numeric_limits<double>::infinity()}};
        engine.show(snapshot);
        const auto* progress = panel.findChild<QProgressBar*>(QStringLiteral("batchProgress"));
        QCOMPARE(progress->value(), progress->maximum());
        QCOMPARE(figure(panel, "etaValue"), Figures::duration(-1));
        // The points that are numbers stay; the others would take the axes with them.
        QCOMPARE(lossPoints(panel), (QList<QPointF>{{1, 5.0}, {3, 4.0}}));

        snapshot.batchSamples = -20;
        snapshot.targetBatchSize = 100;
        engine.show(snapshot);
        QCOMPARE(progress->value(), 0);
        QVERIFY(!panel.grab().isNull());
    }

    void rendersSomething() {
        RecordingEngine engine(ledgers_.path());
        engine.show(busySnapshot(QDateTime::currentMSecsSinceEpoch()));
        TrainingPanel panel(engine);
        const QImage image = WidgetGrab::ofShown(panel);
        QCOMPARE(image.size(), QSize(1000, 700));
        const int differing = WidgetGrab::pixelsUnlikeCorner(image);
        QVERIFY2(differing > 500, qPrintable(QString::number(differing)));
        QVERIFY(WidgetGrab::saveIfRequested(image, QStringLiteral("training.png")));
    }
};

QTEST_MAIN(TestTrainingPanel)
#include "tst_training_panel.moc"
