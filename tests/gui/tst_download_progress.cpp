// The download of the run's files while the engine prepares to train, as the Training panel and the join
// wizard's preparing page show it: the file's name, a bar at the share downloaded, the bytes so far of the
// file's size, the rate and the time left, following each snapshot the engine publishes; nothing of it
// once the download is no longer active, and again for the next file. A size or a time left that is not
// known, and figures that make no sense, still draw something sensible.
#include "support/GuiFixture.h"
#include "support/PerTestLedgers.h"
#include "support/SignedJoinLink.h"
#include "ui/JoinWizard.h"
#include "ui/StateText.h"
#include "ui/format/Figures.h"
#include "ui/panels/TrainingPanel.h"
#include "ui/widgets/DownloadProgress.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace sahaj::testing;
using sahaj::engine::DataDownload;
using sahaj::ui::DownloadProgress;
using sahaj::ui::Figures;
using sahaj::ui::JoinWizard;
using sahaj::ui::StateText;
using sahaj::ui::TrainingPanel;

namespace {

const QString kShard = QStringLiteral("bnwiki-shard-00017.txt.zst");

// The engine joining, a quarter of the way through a 1 GB shard.
EngineSnapshot downloading(qint64 done = 250'000'000, double etaSeconds = 60) {
    EngineSnapshot s;
    s.timeMs = nowMs();
    s.state = EngineState::Joining;
    s.detail = QStringLiteral("downloading the run's data");
    s.download = DataDownload{kShard, done, 1'000'000'000, 12.5e6, etaSeconds, true};
    return s;
}

// What one widget (the panel or the wizard) shows of the download.
struct Shown {
    const DownloadProgress* widget = nullptr;
    const QLabel* name = nullptr;
    const QProgressBar* bar = nullptr;
    const QLabel* figures = nullptr;

    explicit Shown(const QWidget& parent) {
        widget = parent.findChild<DownloadProgress*>(QStringLiteral("downloadProgress"));
        if (!widget)
            qFatal("no download progress in %s", parent.metaObject()->className());
        name = widget->findChild<QLabel*>(QStringLiteral("downloadName"));
        bar = widget->findChild<QProgressBar*>(QStringLiteral("downloadBar"));
        figures = widget->findChild<QLabel*>(QStringLiteral("downloadFigures"));
        if (!name || !bar || !figures)
            qFatal("the download progress lacks its name, bar or figures");
    }

    // On screen: the widget and every widget above it shown.
    bool visible() const { return widget->isVisible(); }
    // The bar's share, 0..1.
    double fraction() const {
        return bar->maximum() > bar->minimum()
                   ? double(bar->value() - bar->minimum()) / double(bar->maximum() - bar->minimum())
                   : -1.0;
    }
};

// Checks that `shown` says what `download` (active, with a known size) says; the problem, empty: it does.
QString mismatch(const Shown& shown, const DataDownload& download) {
    if (!shown.visible())
        return QStringLiteral("the download is not shown");
    if (!shown.name->text().contains(download.name))
        return QStringLiteral("name: ") + shown.name->text();
    const double fraction = double(download.done) / double(download.total);
    if (std::abs(shown.fraction() - fraction) > 0.001)
        return QStringLiteral("bar at %1 of its range, not %2").arg(shown.fraction()).arg(fraction);
    const QString bar = shown.bar->text();
    for (const QString& part : {Figures::bytes(double(download.done)), Figures::bytes(double(download.total)),
                                Figures::percent(fraction)})
        if (!bar.contains(part))
            return QStringLiteral("bar \"%1\" lacks \"%2\"").arg(bar, part);
    const QString figures = shown.figures->text();
    for (const QString& part :
         {Figures::rate(download.bytesPerSecond), Figures::duration(download.etaSeconds)})
        if (!figures.contains(part))
            return QStringLiteral("figures \"%1\" lack \"%2\"").arg(figures, part);
    return {};
}

// A first run on its way through the wizard, up to the preparing page.
struct Machine : GuiFixture {
    std::unique_ptr<JoinWizard> wizard;

    Machine() {
        startController();
        wizard = std::make_unique<JoinWizard>(*engine, *controller);
        wizard->show();
    }

    void joinThroughTheWizard() {
        wizard->findChild<QCheckBox*>(QStringLiteral("consentCheck"))->setChecked(true);
        wizard->button(QWizard::NextButton)->click();
        wizard->findChild<QLineEdit*>(QStringLiteral("runLinkEdit"))->setText(signedJoinLink());
        wizard->button(QWizard::NextButton)->click(); // the hardware page
        wizard->button(QWizard::NextButton)->click(); // the limits page
        wizard->button(QWizard::CommitButton)->click();
    }
};

} // namespace

class TestDownloadProgress : public QObject {
    Q_OBJECT

    PerTestLedgers ledgers_;

private Q_SLOTS:
    void trainingPanelFollowsTheDownload() {
        RecordingEngine engine(ledgers_.path());
        TrainingPanel panel(engine);
        panel.show();
        const Shown shown(panel);
        QVERIFY(!shown.visible()); // offline: nothing downloads

        EngineSnapshot snapshot = downloading();
        engine.show(snapshot);
        QString problem = mismatch(shown, snapshot.download);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(shown.bar->value(), 250);
        const QString state = panel.findChild<QLabel*>(QStringLiteral("stateValue"))->text();
        QVERIFY2(state.contains(StateText::state(EngineState::Joining)), qPrintable(state));

        // The next second's snapshot moves the bar and the figures on.
        snapshot = downloading(750'000'000, 20);
        engine.show(snapshot);
        problem = mismatch(shown, snapshot.download);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(shown.bar->value(), 750);

        // Finished: gone, and the panel goes on with the training.
        snapshot.download.done = snapshot.download.total;
        snapshot.download.active = false;
        engine.show(snapshot);
        QVERIFY(!shown.visible());
        EngineSnapshot training = busySnapshot(nowMs());
        training.download = snapshot.download;
        engine.show(training);
        QVERIFY(!shown.visible());

        // Another file (the next shard): shown again, under its own name.
        snapshot = downloading(100'000'000, 90);
        snapshot.download.name = QStringLiteral("bnwiki-shard-00018.txt.zst");
        engine.show(snapshot);
        problem = mismatch(shown, snapshot.download);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(!shown.name->text().contains(kShard));
    }

    void wizardFollowsTheDownloadAfterJoin() {
        Machine machine;
        const Shown shown(*machine.wizard);
        machine.joinThroughTheWizard();
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::PreparingPage));
        QVERIFY(machine.joined());
        const auto* state = machine.wizard->findChild<QLabel*>(QStringLiteral("joinStateLabel"));
        QVERIFY(state && state->isVisible());
        QVERIFY2(state->text().contains(StateText::state(EngineState::Joining)), qPrintable(state->text()));
        QVERIFY(!shown.visible()); // nothing downloads yet

        EngineSnapshot snapshot = downloading();
        machine.engine->show(snapshot);
        QString problem = mismatch(shown, snapshot.download);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(state->text(), StateText::headline(snapshot));

        snapshot = downloading(999'000'000, 1);
        machine.engine->show(snapshot);
        problem = mismatch(shown, snapshot.download);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // Downloaded and joined: the page says so, and the download is gone.
        EngineSnapshot joined = busySnapshot(nowMs());
        joined.state = EngineState::Waiting;
        joined.download = snapshot.download;
        joined.download.active = false;
        machine.engine->show(joined);
        QVERIFY(!shown.visible());
        QCOMPARE(state->text(), StateText::headline(joined));
    }

    // A download before the wizard reaches its last page is drawn there all the same once it does.
    void wizardShowsADownloadUnderWay() {
        Machine machine;
        machine.engine->show(downloading());
        const Shown shown(*machine.wizard);
        QVERIFY(!shown.visible()); // the consent page is showing
        machine.joinThroughTheWizard();
        // Joining publishes the engine's snapshot again, download and all.
        const QString problem = mismatch(shown, downloading().download);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void unknownSizeAndTimeLeft() {
        RecordingEngine engine(ledgers_.path());
        TrainingPanel panel(engine);
        panel.show();
        const Shown shown(panel);
        EngineSnapshot snapshot = downloading(40'000'000, -1);
        snapshot.download.total = 0;
        engine.show(snapshot);
        QVERIFY(shown.visible());
        // A busy bar; the bytes so far and the rate in words.
        QCOMPARE(shown.bar->minimum(), 0);
        QCOMPARE(shown.bar->maximum(), 0);
        const QString figures = shown.figures->text();
        QVERIFY2(figures.contains(Figures::bytes(40e6)), qPrintable(figures));
        QVERIFY2(figures.contains(Figures::rate(12.5e6)), qPrintable(figures));
        QVERIFY2(figures.contains(DownloadProgress::tr("time left unknown")), qPrintable(figures));

        // More than the size, a negative rate, no name: drawn within the bar's range, without a crash.
        snapshot = downloading(3'000'000'000, 5);
        snapshot.download.name.clear();
        snapshot.download.bytesPerSecond = -4;
        engine.show(snapshot);
        QVERIFY(shown.visible());
        QCOMPARE(shown.bar->value(), shown.bar->maximum());
        QVERIFY(!shown.name->text().isEmpty());
    }
};

QTEST_MAIN(TestDownloadProgress)
#include "tst_download_progress.moc"
