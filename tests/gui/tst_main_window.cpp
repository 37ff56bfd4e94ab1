// The main window: the five panels as tabs (Ctrl+1..5), the control bar and the status bar; an automatic
// pause shows its reason in the control bar, the status bar and the tray's tooltip; Join runs the wizard
// on the first run and joins straight away after it (the join dialog: tst_join_run_dialog); Leave is not
// reported as a disconnection; closing without a tray quits; About shows the licence.
#include "core/engine/VolunteerSettings.h"
#include "support/GuiFixture.h"
#include "support/WidgetGrab.h"
#include "ui/AppController.h"
#include "ui/ControlBar.h"
#include "ui/JoinWizard.h"
#include "ui/MainWindow.h"
#include "ui/StateText.h"
#include "ui/TrayIcon.h"
#include "ui/panels/BandwidthPanel.h"
#include "ui/panels/ContributionPanel.h"
#include "ui/panels/EventLogPanel.h"
#include "ui/panels/PeerMapPanel.h"
#include "ui/panels/TrainingPanel.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextDocument>
#include <QToolButton>
#include <QtTest>

#include <memory>

using namespace sahaj::testing;
using sahaj::ui::BandwidthPanel;
using sahaj::ui::ContributionPanel;
using sahaj::ui::ControlBar;
using sahaj::ui::EventLogPanel;
using sahaj::ui::JoinWizard;
using sahaj::ui::MainWindow;
using sahaj::ui::PeerMapPanel;
using sahaj::ui::StateText;
using sahaj::ui::TrainingPanel;
using sahaj::ui::TrayIcon;

namespace {

// A link the window takes for joinable without reading it (an https join file; nothing is fetched: the
// engine is a recording one).
const QString kLink = QStringLiteral("https://runs.sahaj.invalid/open-run.join");

// The main window over the fixture's engine and controller; `saved` is the settings file it finds.
struct Machine : GuiFixture {
    std::unique_ptr<MainWindow> window;

    explicit Machine(EngineState state = EngineState::Training, const VolunteerSettings* saved = nullptr)
        : GuiFixture(state) {
        if (saved)
            saved->save(settingsPath);
        window = std::make_unique<MainWindow>(*engine, startController());
    }

    QString statusLine() const { return window->statusLine()->text(); }
};

// Whether `label` has the room its whole text needs: on one line, or wrapped to its width.
bool shownWhole(const QLabel& label) {
    const QRect room = label.contentsRect();
    const QFontMetrics metrics(label.font());
    if (!label.wordWrap())
        return room.width() >= metrics.horizontalAdvance(label.text());
    const QRect needed =
        metrics.boundingRect(QRect(0, 0, room.width(), 100000), Qt::TextWordWrap, label.text());
    return room.height() >= needed.height() && room.width() >= needed.width();
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fivePanelsAsTabs() {
        Machine machine;
        QTabWidget* tabs = machine.window->tabs();
        QCOMPARE(tabs->count(), 5);
        QVERIFY(qobject_cast<ContributionPanel*>(tabs->widget(MainWindow::ContributionTab)));
        QVERIFY(qobject_cast<BandwidthPanel*>(tabs->widget(MainWindow::BandwidthTab)));
        QVERIFY(qobject_cast<PeerMapPanel*>(tabs->widget(MainWindow::PeersTab)));
        QVERIFY(qobject_cast<TrainingPanel*>(tabs->widget(MainWindow::TrainingTab)));
        QVERIFY(qobject_cast<EventLogPanel*>(tabs->widget(MainWindow::LogTab)));
        QCOMPARE(tabs->tabText(MainWindow::PeersTab), QStringLiteral("Peers"));
        QVERIFY(machine.window->controlBar()->isVisibleTo(machine.window.get()));
    }

    void statusLineFollowsTheEngine() {
        Machine machine;
        QCOMPARE(machine.statusLine(), StateText::statusLine(*machine.engine->snapshot()));
        QVERIFY(machine.statusLine().contains(StateText::samplesPerSecond(21.25)));
        EngineSnapshot waiting = *machine.engine->snapshot();
        waiting.state = EngineState::Waiting;
        waiting.detail = QStringLiteral("waiting for a group to form");
        machine.engine->show(waiting);
        QVERIFY(machine.statusLine().contains(QStringLiteral("waiting for a group to form")));
        QVERIFY(machine.window->windowTitle().contains(StateText::state(EngineState::Waiting)));

        // A rule that cannot apply is said in the control bar, not run into the status line.
        machine.sensors->idle.reset();
        VolunteerSettings settings = machine.controller->settings();
        settings.onlyWhenIdle = true;
        QVERIFY(machine.controller->applySettings(settings).isEmpty());
        const QString warning = machine.controller->activeWarning();
        QVERIFY(!warning.isEmpty());
        QTRY_COMPARE(machine.window->controlBar()->warningLabel()->text(), warning);
        QVERIFY2(!machine.statusLine().contains(warning), qPrintable(machine.statusLine()));
    }

    // A notice beside the status line leaves both readable whole (seen: the lost collaboration's notice
    // cut the status line at "↓ 0" and itself at "heard from").
    void aNoticeLeavesTheStatusLineWhole() {
        Machine machine;
        machine.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(machine.window.get()));
        // Alone, the status line has the width: one line.
        const QFontMetrics metrics(machine.window->statusLine()->font());
        QTRY_VERIFY_WITH_TIMEOUT(machine.window->statusLine()->contentsRect().width() >=
                                     metrics.horizontalAdvance(machine.statusLine()),
                                 2000);
        QVERIFY(!machine.window->noticeLabel()->isVisible());
        EngineSnapshot lost = *machine.engine->snapshot();
        lost.collaborationLost = true;
        machine.engine->show(lost);
        // Without a tray the notice goes to the window; with one, the test shows the same through a warning.
        if (machine.window->noticeLabel()->text().isEmpty())
            Q_EMIT machine.controller->warning(TrayIcon::lostNotice(false, lost, true)->title +
                                               QStringLiteral(": ") +
                                               TrayIcon::lostNotice(false, lost, true)->text);
        QVERIFY(!machine.window->noticeLabel()->text().isEmpty());
        QVERIFY(machine.statusLine().contains(StateText::rates(lost)));
        for (QLabel* label : {machine.window->statusLine(), machine.window->noticeLabel()})
            QTRY_VERIFY2_WITH_TIMEOUT(shownWhole(*label),
                                      qPrintable(label->objectName() + QStringLiteral(": ") + label->text()),
                                      2000);
        QVERIFY(WidgetGrab::saveIfRequested(machine.window->grab().toImage(),
                                            QStringLiteral("main-window-notice.png")));
    }

    void automaticPauseReasonShowsEverywhere() {
        Machine machine;
        const QString reason = StateText::cause(PauseCause::OnBattery);
        QVERIFY(!machine.statusLine().contains(reason));
        machine.sensors->setBattery(true);
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("pause:on_battery"));
        QCOMPARE(machine.window->controlBar()->stateLabel()->text(), reason);
        QVERIFY2(machine.statusLine().contains(reason), qPrintable(machine.statusLine()));
        QVERIFY2(machine.window->tray()->toolTip().contains(reason),
                 qPrintable(machine.window->tray()->toolTip()));
        machine.sensors->setBattery(false);
        QVERIFY(!machine.statusLine().contains(reason));
        QVERIFY(!machine.window->tray()->toolTip().contains(reason));
    }

    void ctrlDigitSwitchesTabs() {
        Machine machine;
        machine.window->show();
        machine.window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(machine.window.get()));
        QCOMPARE(machine.window->tabs()->currentIndex(), int(MainWindow::ContributionTab));
        QTest::keyClick(machine.window.get(), Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(machine.window->tabs()->currentIndex(), int(MainWindow::PeersTab));
        QVERIFY(qobject_cast<PeerMapPanel*>(machine.window->tabs()->currentWidget()));
        QTest::keyClick(machine.window.get(), Qt::Key_5, Qt::ControlModifier);
        QVERIFY(qobject_cast<EventLogPanel*>(machine.window->tabs()->currentWidget()));
        QTest::keyClick(machine.window.get(), Qt::Key_1, Qt::ControlModifier);
        QVERIFY(qobject_cast<ContributionPanel*>(machine.window->tabs()->currentWidget()));
    }

    void joinRunsTheWizardOnTheFirstRun() {
        Machine machine(EngineState::Offline);
        QCOMPARE(machine.window->joinLeaveAction()->text(), QStringLiteral("&Join…"));
        machine.window->show();
        machine.window->joinLeaveAction()->trigger();
        auto* wizard = machine.window->findChild<JoinWizard*>();
        QVERIFY(wizard);
        QVERIFY(wizard->isVisible());
        QVERIFY(!machine.joined());

        // No link yet: "Try the demo" on the run page asks the app for the demo, and joins nothing here.
        QSignalSpy demo(machine.window.get(), &MainWindow::demoRequested);
        wizard->next(); // past the consent page, which needs no input to be shown
        auto* tryDemo = wizard->findChild<QPushButton*>(QStringLiteral("tryDemoButton"));
        QVERIFY(tryDemo);
        tryDemo->click();
        QCOMPARE(demo.size(), 1);
        QVERIFY(!machine.joined());
        QVERIFY(wizard->isVisible());
        wizard->reject();
    }

    // Help: the demo, and what a bug report needs, on the clipboard (English, without paths or secrets).
    void helpOffersTheDemoAndASystemReport() {
        Machine machine;
        QSignalSpy demo(machine.window.get(), &MainWindow::demoRequested);
        machine.window->demoAction()->trigger();
        QCOMPARE(demo.size(), 1);

        QGuiApplication::clipboard()->clear();
        machine.window->copySystemReportAction()->trigger();
        const QString report = QGuiApplication::clipboard()->text();
        const auto snapshot = machine.engine->snapshot();
        for (const QString& expected :
             {QStringLiteral("Sahaj "), QStringLiteral("Qt "), QStringLiteral("state: training"),
              QStringLiteral("run: ") + snapshot->runId, QStringLiteral("peer: ") + snapshot->peerId})
            QVERIFY2(report.contains(expected), qPrintable(expected + " not in:\n" + report));
        QVERIFY2(!report.contains(machine.settingsPath), qPrintable(report));
    }

    void joinAfterTheFirstRunJoinsAtOnce() {
        VolunteerSettings settings;
        settings.firstRunDone = true;
        settings.consentGiven = true;
        settings.runLink = kLink; // an open run: no user, no secret to ask
        Machine machine(EngineState::Offline, &settings);
        machine.window->controlBar()->joinLeaveButton()->click();
        QVERIFY(machine.engine->calls.contains(QStringLiteral("join:") + kLink));
        QVERIFY(!machine.window->findChild<JoinWizard*>());
        QCOMPARE(machine.window->joinLeaveAction()->text(), QStringLiteral("&Leave"));
    }

    void leaveIsNoDisconnectionNotice() {
        Machine machine;
        QSignalSpy notified(machine.window->tray(), &TrayIcon::notified);
        machine.window->joinLeaveAction()->trigger();
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("leave"));
        QCOMPARE(machine.engine->snapshot()->state, EngineState::Offline);
        QCOMPARE(notified.size(), 0);
    }

    void closingWithoutATrayQuits() {
        Machine machine;
        machine.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(machine.window.get()));
        QSignalSpy quit(machine.window.get(), &MainWindow::quitRequested);
        QVERIFY(!machine.window->tray()->available()); // offscreen there is no tray
        // The window is the app, and closing it quits; it stays in sight until the process ends, saying so.
        machine.window->close();
        QCOMPARE(quit.size(), 1);
        QVERIFY(machine.window->isVisible());
        QCOMPARE(machine.window->statusBar()->currentMessage(), QStringLiteral("Stopping…"));
        ControlBar* bar = machine.window->controlBar();
        QCOMPARE(bar->stateLabel()->text(), QStringLiteral("Stopping…"));
        QVERIFY(bar->stateLabel()->isEnabled()); // read, not greyed out
        for (QWidget* control :
             std::initializer_list<QWidget*>{bar->joinLeaveButton(), bar->pauseResumeButton(),
                                             bar->finishStepButton(), bar->snoozeButton()})
            QVERIFY(!control->isEnabled());
        QVERIFY(!machine.window->joinLeaveAction()->isEnabled());
        // A second close while stopping hides it, and asks for nothing more.
        machine.window->close();
        QVERIFY(!machine.window->isVisible());
        QCOMPARE(quit.size(), 1);
    }

    void aboutShowsTheLicence() {
        Machine machine;
        machine.window->show();
        QAction* about = nullptr;
        for (QAction* action : machine.window->findChildren<QAction*>())
            if (action->menuRole() == QAction::AboutRole)
                about = action;
        QVERIFY(about);
        about->trigger(); // opens the box without blocking
        auto* box = machine.window->findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY(box->isVisible());
        auto* label = box->findChild<QLabel*>(QStringLiteral("qt_msgbox_label"));
        QVERIFY(label);
        QTextDocument shown;
        shown.setHtml(label->text());
        const QString plain = shown.toPlainText();
        QVERIFY2(plain.contains(QStringLiteral(
                     "Sahaj is free software under the GNU General Public License, version 3 or later.")),
                 qPrintable(plain));
        QVERIFY2(plain.contains(QStringLiteral("Copyright © 2026 The Sahaj developers")), qPrintable(plain));
        QVERIFY(
            label->text().contains(QStringLiteral("<a href=\"https://www.gnu.org/licenses/gpl-3.0.html\">")));
        QVERIFY(label->openExternalLinks());
        box->close();
    }

    void quitFromTheTray() {
        Machine machine;
        QSignalSpy quit(machine.window.get(), &MainWindow::quitRequested);
        machine.window->tray()->quitAction()->trigger();
        QCOMPARE(quit.size(), 1);
        // Stopping is shown in the window, the tray's tooltip and its menu, which offers nothing more.
        QCOMPARE(machine.window->statusBar()->currentMessage(), QStringLiteral("Stopping…"));
        QCOMPARE(machine.window->tray()->toolTip(), QStringLiteral("Sahaj — stopping…"));
        QVERIFY(!machine.window->tray()->quitAction()->isEnabled());
        QVERIFY(!machine.window->quitAction()->isEnabled());
        // A later snapshot does not bring the engine's state, or a control, back over it.
        machine.engine->show(*machine.engine->snapshot());
        QCOMPARE(machine.window->tray()->toolTip(), QStringLiteral("Sahaj — stopping…"));
        QCOMPARE(machine.window->controlBar()->stateLabel()->text(), QStringLiteral("Stopping…"));
        QVERIFY(!machine.window->controlBar()->joinLeaveButton()->isEnabled());
        QCOMPARE(machine.window->statusBar()->currentMessage(), QStringLiteral("Stopping…"));
        machine.window->quitAction()->trigger();
        QCOMPARE(quit.size(), 1);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
