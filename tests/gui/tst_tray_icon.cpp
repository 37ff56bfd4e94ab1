// The tray icon: its tooltip carries the state, the reason of a pause and the figures; its icon follows
// the state; its menu drives the engine through the controller (pause, resume, snooze); it notifies
// errors (a failed admission in the volunteer's words), milestones, a disconnection the user did not ask
// for and a coordinator that stopped answering, and nothing when notifications are off.
#include "core/engine/VolunteerSettings.h"
#include "support/GuiFixture.h"
#include "ui/AppController.h"
#include "ui/StateText.h"
#include "ui/TrayIcon.h"
#include "ui/format/Figures.h"

#include <QAction>
#include <QImage>
#include <QMenu>
#include <QSignalSpy>
#include <QtTest>

using namespace sahaj::testing;
using sahaj::engine::EngineEvent;
using sahaj::engine::JoinProblem;
using sahaj::ui::Figures;
using sahaj::ui::StateText;
using sahaj::ui::TrayIcon;

namespace {

// The tray over the fixture's engine and controller.
struct Machine : GuiFixture {
    explicit Machine(const EngineSnapshot& snapshot = busySnapshot(nowMs())) : GuiFixture(snapshot) {}

    TrayIcon tray{*engine, startController()};

    void showState(EngineState state, const QString& detail = {}) {
        EngineSnapshot snapshot = *engine->snapshot();
        snapshot.state = state;
        snapshot.cause = PauseCause::None;
        snapshot.detail = detail;
        engine->show(snapshot);
    }
};

QImage imageOf(const QIcon& icon) {
    return icon.pixmap(22, 22).toImage();
}

EngineSnapshot inState(EngineState state, const QString& detail = {}) {
    EngineSnapshot snapshot = busySnapshot(nowMs());
    snapshot.state = state;
    snapshot.detail = detail;
    return snapshot;
}

} // namespace

class TestTrayIcon : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tooltipOfABusyEngine() {
        Machine machine;
        const QString tip = machine.tray.toolTip();
        QVERIFY2(tip.contains(StateText::state(EngineState::Training)), qPrintable(tip));
        QVERIFY2(tip.contains(StateText::samplesPerSecond(21.25)), qPrintable(tip));
        QVERIFY2(tip.contains(Figures::rate(1.5e6)), qPrintable(tip));
        QVERIFY2(tip.contains(Figures::rate(2.25e6)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("21")), qPrintable(tip));
    }

    void tooltipOfAnEnginePausedOnBattery() {
        Machine machine;
        machine.sensors->setBattery(true);
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("pause:on_battery"));
        const QString tip = machine.tray.toolTip();
        QVERIFY2(tip.contains(StateText::state(EngineState::Paused)), qPrintable(tip));
        QVERIFY2(tip.contains(StateText::cause(PauseCause::OnBattery)), qPrintable(tip));
        QVERIFY2(tip.contains(StateText::rates(*machine.engine->snapshot())), qPrintable(tip));
        // Back on mains power the rule lifts and the reason goes with it.
        machine.sensors->setBattery(false);
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("resume"));
        QVERIFY(!machine.tray.toolTip().contains(StateText::cause(PauseCause::OnBattery)));
    }

    void tooltipOfAnError() {
        const QString tip =
            TrayIcon::toolTipFor(inState(EngineState::Error, QStringLiteral("no coordinator")));
        QVERIFY2(tip.contains(StateText::state(EngineState::Error)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("no coordinator")), qPrintable(tip));
    }

    void iconFollowsTheState() {
        const QList<EngineState> states{EngineState::Offline, EngineState::Waiting, EngineState::Training,
                                        EngineState::Paused,  EngineState::Snoozed, EngineState::Error};
        for (int i = 0; i < states.size(); ++i) {
            QVERIFY(!TrayIcon::iconFor(states[i]).isNull());
            for (int j = i + 1; j < states.size(); ++j) {
                QVERIFY(TrayIcon::iconPathFor(states[i]) != TrayIcon::iconPathFor(states[j]));
                QVERIFY2(imageOf(TrayIcon::iconFor(states[i])) != imageOf(TrayIcon::iconFor(states[j])),
                         qPrintable(TrayIcon::iconPathFor(states[i]) + TrayIcon::iconPathFor(states[j])));
            }
        }
        QCOMPARE(TrayIcon::iconPathFor(EngineState::Training), QStringLiteral(":/icons/tray-training.svg"));
        QCOMPARE(TrayIcon::iconPathFor(EngineState::Joining), TrayIcon::iconPathFor(EngineState::Waiting));

        Machine machine;
        QCOMPARE(machine.tray.iconPath(), TrayIcon::iconPathFor(EngineState::Training));
        QCOMPARE(imageOf(machine.tray.icon()), imageOf(TrayIcon::iconFor(EngineState::Training)));
        machine.showState(EngineState::Error, QStringLiteral("failed"));
        QCOMPARE(machine.tray.iconPath(), TrayIcon::iconPathFor(EngineState::Error));
        QCOMPARE(imageOf(machine.tray.icon()), imageOf(TrayIcon::iconFor(EngineState::Error)));
        machine.showState(EngineState::Joining);
        QCOMPARE(imageOf(machine.tray.icon()), imageOf(TrayIcon::iconFor(EngineState::Waiting)));
    }

    void menuPausesAndResumesThroughTheController() {
        Machine machine;
        QAction* toggle = machine.tray.pauseResumeAction();
        QVERIFY(toggle->isEnabled());
        QCOMPARE(toggle->text(), QStringLiteral("&Pause"));
        toggle->trigger();
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("pause:user"));
        QVERIFY(machine.controller->settings().userPaused);
        QCOMPARE(toggle->text(), QStringLiteral("&Resume"));
        QVERIFY(machine.tray.toolTip().contains(StateText::cause(PauseCause::User)));
        toggle->trigger();
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("resume"));
        QCOMPARE(toggle->text(), QStringLiteral("&Pause"));
    }

    // The control bar's "finish this step, then pause" is in the tray's menu too (a volunteer who lives in
    // the tray had no way to it), enabled while computing and until asked.
    void menuFinishesTheStepThenPauses() {
        Machine machine;
        QAction* finish = machine.tray.finishStepAction();
        QVERIFY(finish && machine.tray.menu()->actions().contains(finish));
        QVERIFY(finish->isEnabled());
        finish->trigger();
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("finish-step"));
        Machine offline(inState(EngineState::Offline));
        QVERIFY(!offline.tray.finishStepAction()->isEnabled());
    }

    void menuSnoozesAndCancels() {
        Machine machine;
        QVERIFY(!machine.tray.cancelSnoozeAction()->isEnabled());
        QCOMPARE(machine.tray.snoozeAction(2), nullptr);
        const qint64 before = nowMs();
        machine.tray.snoozeAction(3)->trigger();
        const qint64 after = nowMs();
        const QString call = machine.engine->calls.last();
        QVERIFY2(call.startsWith(QStringLiteral("pause:snooze:")), qPrintable(call));
        const qint64 until = call.section(QLatin1Char(':'), 2).toLongLong();
        QVERIFY2(until >= before + 3 * kHourMs && until <= after + 3 * kHourMs, qPrintable(call));
        QVERIFY(machine.tray.cancelSnoozeAction()->isEnabled());
        QVERIFY(machine.tray.toolTip().contains(StateText::cause(PauseCause::Snooze, until)));
        // The one toggle resumes a snooze too.
        QCOMPARE(machine.tray.pauseResumeAction()->text(), QStringLiteral("&Resume"));
        machine.tray.cancelSnoozeAction()->trigger();
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("resume"));
        QCOMPARE(machine.controller->settings().snoozeUntilMs, 0);
    }

    void pauseOnTopOfARuleIsTheUsers() {
        // A rule's pause is not the user's to resume: the toggle offers Pause, which outlasts the rule.
        Machine machine;
        machine.sensors->setBattery(true);
        QCOMPARE(machine.tray.pauseResumeAction()->text(), QStringLiteral("&Pause"));
        machine.tray.pauseResumeAction()->trigger();
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("pause:user"));
        machine.sensors->setBattery(false);
        QCOMPARE(machine.engine->snapshot()->cause, PauseCause::User);
    }

    void openAndQuitAreSignals() {
        Machine machine;
        QSignalSpy open(&machine.tray, &TrayIcon::openRequested);
        QSignalSpy quit(&machine.tray, &TrayIcon::quitRequested);
        machine.tray.openAction()->trigger();
        machine.tray.quitAction()->trigger();
        QCOMPARE(open.size(), 1);
        QCOMPARE(quit.size(), 1);
    }

    void controlsNeedAJoinedEngine() {
        Machine machine(inState(EngineState::Offline));
        QVERIFY(!machine.tray.pauseResumeAction()->isEnabled());
        QVERIFY(!machine.tray.snoozeAction(1)->isEnabled());
        QVERIFY(machine.tray.openAction()->isEnabled());
        QVERIFY(machine.tray.quitAction()->isEnabled());
    }

    // Losing touch with the collaboration while running: notified once, as "disconnected — retrying", and
    // said in the state's reason.
    void lostCollaborationDecision() {
        EngineSnapshot lost = inState(EngineState::Training);
        lost.collaborationLost = true;
        const auto notice = TrayIcon::lostNotice(false, lost, true);
        QVERIFY(notice.has_value());
        QVERIFY2(notice->title.contains(QStringLiteral("retrying")), qPrintable(notice->title));
        QVERIFY(!TrayIcon::lostNotice(true, lost, true).has_value());   // already said
        QVERIFY(!TrayIcon::lostNotice(false, lost, false).has_value()); // notifications off
        QVERIFY(!TrayIcon::lostNotice(false, inState(EngineState::Training), true).has_value());
        QVERIFY2(StateText::headline(lost).contains(QStringLiteral("disconnected from the collaboration")),
                 qPrintable(StateText::headline(lost)));
        QVERIFY2(TrayIcon::toolTipFor(lost).contains(QStringLiteral("retrying")),
                 qPrintable(TrayIcon::toolTipFor(lost)));
    }

    // The run's coordinator alone out of reach: said once in the tray, and in the state line while it
    // lasts; a collaboration lost altogether is said instead.
    void lostCoordinatorDecision() {
        EngineSnapshot lost = inState(EngineState::Training);
        lost.coordinatorLost = true;
        const auto notice = TrayIcon::coordinatorNotice(false, lost, true);
        QVERIFY(notice.has_value());
        QVERIFY2(notice->title.contains(QStringLiteral("coordinator does not answer")),
                 qPrintable(notice->title));
        QVERIFY2(notice->text.contains(QStringLiteral("new volunteers cannot join")),
                 qPrintable(notice->text));
        QCOMPARE(notice->icon, QSystemTrayIcon::Warning);
        QVERIFY(!TrayIcon::coordinatorNotice(true, lost, true).has_value());   // already said
        QVERIFY(!TrayIcon::coordinatorNotice(false, lost, false).has_value()); // notifications off
        QVERIFY(!TrayIcon::coordinatorNotice(false, inState(EngineState::Training), true).has_value());
        EngineSnapshot everyoneGone = lost;
        everyoneGone.collaborationLost = true;
        QVERIFY(!TrayIcon::coordinatorNotice(false, everyoneGone, true).has_value());
        QVERIFY2(!StateText::headline(everyoneGone).contains(QStringLiteral("coordinator")),
                 qPrintable(StateText::headline(everyoneGone)));
        EngineSnapshot paused = lost;
        paused.state = EngineState::Paused;
        paused.cause = PauseCause::User;
        QVERIFY(!TrayIcon::coordinatorNotice(false, paused, true).has_value());

        const QString headline = StateText::headline(lost);
        QVERIFY2(headline.startsWith(StateText::state(EngineState::Training)), qPrintable(headline));
        QVERIFY2(headline.contains(QStringLiteral("coordinator does not answer")), qPrintable(headline));
        QVERIFY2(StateText::statusLine(lost).contains(QStringLiteral("coordinator does not answer")),
                 qPrintable(StateText::statusLine(lost)));
        QVERIFY2(TrayIcon::toolTipFor(lost).contains(QStringLiteral("coordinator does not answer")),
                 qPrintable(TrayIcon::toolTipFor(lost)));
        // Back: nothing said any more.
        QVERIFY(!StateText::headline(inState(EngineState::Training)).contains(QStringLiteral("coordinator")));
    }

    // The tray as the engine's snapshots come: one notice when the coordinator goes, none while it stays
    // gone, and one again when it goes anew after coming back.
    void notifiesALostCoordinatorOnce() {
        Machine machine;
        QSignalSpy notified(&machine.tray, &TrayIcon::notified);
        EngineSnapshot snapshot = *machine.engine->snapshot();
        snapshot.coordinatorLost = true;
        machine.engine->show(snapshot);
        QCOMPARE(notified.size(), 1);
        QVERIFY2(notified.last().at(0).toString().contains(QStringLiteral("coordinator")),
                 qPrintable(notified.last().at(0).toString()));
        machine.engine->show(snapshot);
        QCOMPARE(notified.size(), 1);
        snapshot.coordinatorLost = false;
        machine.engine->show(snapshot);
        QCOMPARE(notified.size(), 1);
        QVERIFY(!machine.tray.toolTip().contains(QStringLiteral("coordinator")));
    }

    // An admission failure reads in the volunteer's words wherever it shows; the engine's account stays
    // in the log (the event's text).
    void aFailedAdmissionReadsInPlainWords() {
        EngineSnapshot refused = inState(
            EngineState::Error, QStringLiteral("the run's token endpoint refused this peer: wrong password"));
        refused.problem = JoinProblem::OrganiserRefused;
        refused.problemReason = QStringLiteral("wrong password");
        const QString headline = StateText::headline(refused);
        QVERIFY2(
            headline.contains(QStringLiteral("the run's organiser refused this computer: wrong password")),
            qPrintable(headline));
        QVERIFY2(!headline.contains(QStringLiteral("token endpoint")), qPrintable(headline));
        QVERIFY2(!TrayIcon::toolTipFor(refused).contains(QStringLiteral("token endpoint")),
                 qPrintable(TrayIcon::toolTipFor(refused)));
        const auto stopped = TrayIcon::disconnectionNotice(EngineState::Training, refused, false, true);
        QVERIFY(stopped.has_value());
        QCOMPARE(stopped->text,
                 StateText::problem(JoinProblem::OrganiserRefused, QStringLiteral("wrong password")));

        EngineSnapshot unreachable = inState(
            EngineState::Error, QStringLiteral("no token endpoint: no DHT node answered at the coordinator's "
                                               "address 203.0.113.7:4600 within a minute"));
        unreachable.problem = JoinProblem::OrganiserUnreachable;
        QVERIFY2(StateText::headline(unreachable).contains(QStringLiteral("could not be reached")),
                 qPrintable(StateText::headline(unreachable)));
        QVERIFY2(!StateText::statusLine(unreachable).contains(QStringLiteral("DHT")),
                 qPrintable(StateText::statusLine(unreachable)));

        EngineEvent event;
        event.level = EngineEvent::Level::Error;
        event.text = unreachable.detail;
        event.problem = JoinProblem::OrganiserUnreachable;
        const auto notice = TrayIcon::eventNotice(event, EngineState::Joining, true);
        QVERIFY(notice.has_value());
        QCOMPARE(notice->title, QStringLiteral("Sahaj could not join the run"));
        QCOMPARE(notice->text, StateText::problem(JoinProblem::OrganiserUnreachable, {}));
        // An error of no known kind is shown as the engine says it.
        event.problem = JoinProblem::None;
        QCOMPARE(TrayIcon::eventNotice(event, EngineState::Joining, true)->text, unreachable.detail);
        QCOMPARE(StateText::headline(inState(EngineState::Error, QStringLiteral("disk full"))),
                 StateText::state(EngineState::Error) + QStringLiteral(" — disk full"));
    }

    void disconnectionDecision() {
        const EngineSnapshot offline = inState(EngineState::Offline);
        const EngineSnapshot failed = inState(EngineState::Error, QStringLiteral("the coordinator is gone"));
        const EngineSnapshot paused = inState(EngineState::Paused);
        // Leaving Training or Waiting for Offline or Error, unasked: notified.
        QVERIFY(TrayIcon::disconnectionNotice(EngineState::Training, offline, false, true).has_value());
        QVERIFY(TrayIcon::disconnectionNotice(EngineState::Waiting, offline, false, true).has_value());
        const auto error = TrayIcon::disconnectionNotice(EngineState::Training, failed, false, true);
        QVERIFY(error.has_value());
        QCOMPARE(error->text, QStringLiteral("the coordinator is gone"));
        QCOMPARE(error->icon, QSystemTrayIcon::Critical);
        // Asked for, notifications off, a pause, or not connected before: nothing.
        QVERIFY(!TrayIcon::disconnectionNotice(EngineState::Training, offline, true, true).has_value());
        QVERIFY(!TrayIcon::disconnectionNotice(EngineState::Training, offline, false, false).has_value());
        QVERIFY(!TrayIcon::disconnectionNotice(EngineState::Training, failed, false, false).has_value());
        QVERIFY(!TrayIcon::disconnectionNotice(EngineState::Training, paused, false, true).has_value());
        QVERIFY(!TrayIcon::disconnectionNotice(EngineState::Paused, offline, false, true).has_value());
        QVERIFY(!TrayIcon::disconnectionNotice(EngineState::Joining, failed, false, true).has_value());
    }

    void eventDecision() {
        const auto event = [](EngineEvent::Level level) {
            return EngineEvent{nowMs(), level, QStringLiteral("x")};
        };
        QVERIFY(
            TrayIcon::eventNotice(event(EngineEvent::Level::Error), EngineState::Training, true).has_value());
        QVERIFY(TrayIcon::eventNotice(event(EngineEvent::Level::Milestone), EngineState::Training, true)
                    .has_value());
        QVERIFY(
            !TrayIcon::eventNotice(event(EngineEvent::Level::Info), EngineState::Training, true).has_value());
        QVERIFY(!TrayIcon::eventNotice(event(EngineEvent::Level::Warning), EngineState::Training, true)
                     .has_value());
        QVERIFY(!TrayIcon::eventNotice(event(EngineEvent::Level::Error), EngineState::Training, false)
                     .has_value());
        QVERIFY(!TrayIcon::eventNotice(event(EngineEvent::Level::Milestone), EngineState::Training, false)
                     .has_value());
        // A milestone is worded in the app's language from its figure, not the log's English text.
        EngineEvent milestone = event(EngineEvent::Level::Milestone);
        milestone.steps = 1000;
        QCOMPARE(TrayIcon::eventNotice(milestone, EngineState::Training, true)->text,
                 QStringLiteral("%1 global steps contributed").arg(Figures::count(1000)));
        // A failed join is not a stopped training: nothing had started (seen with a bad join file).
        QCOMPARE(TrayIcon::eventNotice(event(EngineEvent::Level::Error), EngineState::Joining, true)->title,
                 QStringLiteral("Sahaj could not join the run"));
        QCOMPARE(TrayIcon::eventNotice(event(EngineEvent::Level::Error), EngineState::Training, true)->title,
                 QStringLiteral("Sahaj stopped training"));
    }

    void notifiesAnUnaskedDisconnection() {
        Machine machine;
        QSignalSpy notified(&machine.tray, &TrayIcon::notified);
        machine.showState(EngineState::Offline);
        QCOMPARE(notified.size(), 1);

        // A leave the user asked for is not news.
        machine.showState(EngineState::Training);
        machine.tray.expectLeave();
        machine.engine->leave();
        QCOMPARE(notified.size(), 1);
        // ... and the expectation is spent once out: the next unasked one is notified again.
        machine.showState(EngineState::Training);
        machine.showState(EngineState::Error, QStringLiteral("lost the collaboration"));
        QCOMPARE(notified.size(), 2);
        QCOMPARE(notified.last().at(1).toString(), QStringLiteral("lost the collaboration"));
    }

    void notificationsFollowTheSetting() {
        Machine machine;
        QSignalSpy notified(&machine.tray, &TrayIcon::notified);
        machine.engine->emitEvent(EngineEvent::Level::Milestone, QStringLiteral("1,000 samples contributed"));
        machine.engine->emitEvent(EngineEvent::Level::Info, QStringLiteral("a group formed"));
        QCOMPARE(notified.size(), 1);

        VolunteerSettings quiet = machine.controller->settings();
        quiet.notifications = false;
        QVERIFY(machine.controller->applySettings(quiet).isEmpty());
        machine.engine->emitEvent(EngineEvent::Level::Error, QStringLiteral("training failed"));
        machine.showState(EngineState::Offline);
        QCOMPARE(notified.size(), 1);
    }
};

QTEST_MAIN(TestTrayIcon)
#include "tst_tray_icon.moc"
