// The control bar: each button reaches the engine through the controller (pause, resume, finish the step,
// snooze, leave), Join asks the window for the wizard instead of joining by itself, the label says the
// state and the reason for any pause, and everything works from the keyboard.
#include "support/GuiFixture.h"
#include "ui/AppController.h"
#include "ui/ControlBar.h"
#include "ui/StateText.h"

#include <QAction>
#include <QDateTime>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

using namespace sahaj::testing;
using sahaj::ui::ControlBar;
using sahaj::ui::StateText;

namespace {

// The control bar over the fixture's engine and controller.
struct Machine : GuiFixture {
    explicit Machine(EngineState state = EngineState::Training) : GuiFixture(state) {}

    ControlBar bar{*engine, startController()};
    QString label() const { return bar.stateLabel()->text(); }
};

QAction* snoozeFor(const ControlBar& bar, const QString& text) {
    for (QAction* action : bar.snoozeButton()->menu()->actions())
        if (action->text() == text)
            return action;
    return nullptr;
}

} // namespace

class TestControlBar : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pauseAndResume() {
        Machine machine;
        QPushButton* toggle = machine.bar.pauseResumeButton();
        QCOMPARE(toggle->text(), QStringLiteral("&Pause"));
        QCOMPARE(machine.label(), StateText::state(EngineState::Training));
        toggle->click();
        QCOMPARE(machine.lastCall(), QStringLiteral("pause:user"));
        QCOMPARE(toggle->text(), QStringLiteral("&Resume"));
        QCOMPARE(machine.label(), StateText::cause(PauseCause::User));
        toggle->click();
        QCOMPARE(machine.lastCall(), QStringLiteral("resume"));
        QCOMPARE(machine.label(), StateText::state(EngineState::Training));
    }

    void finishTheStepThenPause() {
        Machine machine;
        QPushButton* finish = machine.bar.finishStepButton();
        QVERIFY(finish->isEnabled());
        finish->click();
        QCOMPARE(machine.lastCall(), QStringLiteral("finish-step"));
        // Asked once is enough; the label says what will happen.
        QVERIFY(!finish->isEnabled());
        QVERIFY2(machine.label().contains(StateText::reason(*machine.engine->snapshot())),
                 qPrintable(machine.label()));
        QVERIFY(!StateText::reason(*machine.engine->snapshot()).isEmpty());
    }

    void snoozeMenu() {
        Machine machine;
        QAction* sixHours = snoozeFor(machine.bar, QStringLiteral("For &6 hours"));
        QAction* cancel = snoozeFor(machine.bar, QStringLiteral("&Cancel snooze"));
        QVERIFY(sixHours && cancel);
        QVERIFY(!cancel->isEnabled());
        const qint64 before = nowMs();
        sixHours->trigger();
        const QString call = machine.lastCall();
        QVERIFY2(call.startsWith(QStringLiteral("pause:snooze:")), qPrintable(call));
        QVERIFY(call.section(QLatin1Char(':'), 2).toLongLong() >= before + 6 * kHourMs);
        QVERIFY(machine.label().startsWith(StateText::cause(PauseCause::Snooze, 0)));
        QVERIFY(cancel->isEnabled());
        cancel->trigger();
        QCOMPARE(machine.lastCall(), QStringLiteral("resume"));
    }

    void leaveAndJoin() {
        Machine machine;
        QSignalSpy leaving(&machine.bar, &ControlBar::leaving);
        QSignalSpy joinRequested(&machine.bar, &ControlBar::joinRequested);
        QPushButton* joinLeave = machine.bar.joinLeaveButton();
        QCOMPARE(joinLeave->text(), QStringLiteral("&Leave"));
        joinLeave->click();
        QCOMPARE(machine.lastCall(), QStringLiteral("leave"));
        QCOMPARE(leaving.size(), 1);
        QCOMPARE(joinLeave->text(), QStringLiteral("&Join…"));
        QVERIFY(!machine.bar.pauseResumeButton()->isEnabled());
        QVERIFY(!machine.bar.finishStepButton()->isEnabled());
        QVERIFY(!machine.bar.snoozeButton()->isEnabled());
        // Joining needs the wizard or a password: the bar asks the window and calls nothing itself.
        const int calls = machine.engine->calls.size();
        joinLeave->click();
        QCOMPARE(joinRequested.size(), 1);
        QCOMPARE(machine.engine->calls.size(), calls);
    }

    void labelGivesTheReasonOfEveryPause() {
        Machine machine;
        machine.sensors->setBattery(true);
        QCOMPARE(machine.label(), StateText::cause(PauseCause::OnBattery));
        machine.sensors->setBattery(false);
        QCOMPARE(machine.label(), StateText::state(EngineState::Training));

        VolunteerSettings settings = machine.controller->settings();
        settings.scheduleEnabled = true;
        settings.schedule.reset();
        // One hour allowed, twelve hours away from now: outside the schedule whenever the test runs.
        const QDateTime local = QDateTime::currentDateTime();
        const int day = local.date().dayOfWeek() - 1; // the settings count from 0 = Monday
        settings.schedule.set(static_cast<std::size_t>(day * 24 + (local.time().hour() + 12) % 24));
        QVERIFY(machine.controller->applySettings(settings).isEmpty());
        QCOMPARE(machine.label(), StateText::cause(PauseCause::OutsideSchedule));
    }

    void labelGivesTheError() {
        Machine machine;
        EngineSnapshot failed = *machine.engine->snapshot();
        failed.state = EngineState::Error;
        failed.detail = QStringLiteral("the run's manifest is not signed by its organiser");
        machine.engine->show(failed);
        QVERIFY(machine.label().contains(StateText::state(EngineState::Error)));
        QVERIFY(machine.label().contains(failed.detail));
        QCOMPARE(machine.bar.joinLeaveButton()->text(), QStringLiteral("&Join…"));
    }

    void warningOfARuleThatCannotApply() {
        Machine machine;
        QVERIFY(machine.bar.warningLabel()->isHidden());
        machine.sensors->idle.reset(); // this desktop tells no idle time
        VolunteerSettings settings = machine.controller->settings();
        settings.onlyWhenIdle = true;
        QVERIFY(machine.controller->applySettings(settings).isEmpty());
        QVERIFY(!machine.controller->activeWarning().isEmpty());
        QTRY_COMPARE(machine.bar.warningLabel()->text(), machine.controller->activeWarning());
        QVERIFY(!machine.bar.warningLabel()->isHidden());
    }

    void accessibleNames() {
        Machine machine;
        for (QWidget* widget : std::initializer_list<QWidget*>{
                 machine.bar.joinLeaveButton(), machine.bar.pauseResumeButton(),
                 machine.bar.finishStepButton(), machine.bar.snoozeButton(), machine.bar.stateLabel()})
            QVERIFY2(!widget->accessibleName().isEmpty(), qPrintable(widget->objectName()));
    }

    void keyboard() {
        Machine machine;
        machine.bar.show();
        machine.bar.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&machine.bar));
        // Mnemonics: Alt+P pauses, Alt+R resumes (a mnemonic animates the click: it lands a moment later).
        QTest::keyClick(&machine.bar, Qt::Key_P, Qt::AltModifier);
        QTRY_COMPARE(machine.lastCall(), QStringLiteral("pause:user"));
        QTest::keyClick(&machine.bar, Qt::Key_R, Qt::AltModifier);
        QTRY_COMPARE(machine.lastCall(), QStringLiteral("resume"));
        // Tab reaches the buttons and Space presses the one with focus.
        machine.bar.joinLeaveButton()->setFocus();
        QVERIFY(QTest::qWaitFor([&] { return machine.bar.joinLeaveButton()->hasFocus(); }));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), machine.bar.finishStepButton());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QCOMPARE(machine.lastCall(), QStringLiteral("finish-step"));
        // Alt+L leaves.
        QTest::keyClick(&machine.bar, Qt::Key_L, Qt::AltModifier);
        QTRY_COMPARE(machine.lastCall(), QStringLiteral("leave"));
    }
};

QTEST_MAIN(TestControlBar)
#include "tst_control_bar.moc"
