#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QToolButton;

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

class AppController;

// The row of controls above the panels: Join/Leave, Pause/Resume, "Finish this step, then pause", Snooze ▸,
// and a label with the state and the reason for every pause (the user's or a rule's). Every button has a
// mnemonic (Alt+J/L, Alt+P/R, Alt+F, Alt+N) and an accessible name.
//
// Joining needs the wizard or a password, which the window owns: the Join button asks for it with
// joinRequested(). The other controls go through the controller, which keeps the settings (a snooze survives
// a restart) and the pause rules in step with the engine.
class ControlBar : public QWidget {
    Q_OBJECT
public:
    ControlBar(engine::EngineFacade& engine, AppController& controller, QWidget* parent = nullptr);

    QPushButton* joinLeaveButton() const { return joinLeave_; }
    QPushButton* pauseResumeButton() const { return pauseResume_; }
    QPushButton* finishStepButton() const { return finishStep_; }
    QToolButton* snoozeButton() const { return snooze_; }
    QLabel* stateLabel() const { return state_; }
    QLabel* warningLabel() const { return warning_; }

    // The app is quitting: every control off for good, and the state says "Stopping…" (not the engine's
    // last state, which no longer changes what the user can do) until the process ends.
    void showStopping();

Q_SIGNALS:
    // Join was clicked: the window runs the wizard or asks for the run's password.
    void joinRequested();
    // Leave was clicked (emitted before the controller is told), so the tray does not report the
    // disconnection that follows.
    void leaving();

private:
    void onJoinLeave();
    void render();

    engine::EngineFacade& engine_;
    AppController& controller_;
    QPushButton* joinLeave_ = nullptr;
    QPushButton* pauseResume_ = nullptr;
    QPushButton* finishStep_ = nullptr;
    QToolButton* snooze_ = nullptr;
    QAction* cancelSnooze_ = nullptr;
    QLabel* state_ = nullptr;
    QLabel* warning_ = nullptr;
    bool stopping_ = false;
};

} // namespace sahaj::ui
