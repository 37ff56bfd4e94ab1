#pragma once

#include "core/engine/EngineEvent.h"
#include "core/engine/EngineSnapshot.h"

#include <QIcon>
#include <QObject>
#include <QSystemTrayIcon>

#include <memory>
#include <optional>

class QAction;
class QMenu;

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

class AppController;

// Everything the app shows in the system tray, in one class (as qBittorrent isolates it): an icon per state,
// a tooltip with the state, the reason, the speed and the rates, the menu (Open, Pause/Resume, Snooze ▸,
// Quit) and the notifications. Where the desktop has no tray nothing is shown (available() is false) and the
// app keeps its window open instead; the tooltip, icon and menu are still kept current.
class TrayIcon : public QObject {
    Q_OBJECT
public:
    // A notification the tray shows (QSystemTrayIcon::showMessage).
    struct Notice {
        QString title;
        QString text;
        QSystemTrayIcon::MessageIcon icon = QSystemTrayIcon::Information;
    };

    // How often a desktop without a tray is asked again whether it has one now.
    static constexpr int kTrayWatchMs = 5000;

    TrayIcon(engine::EngineFacade& engine, AppController& controller, QObject* parent = nullptr);
    ~TrayIcon() override;

    // The desktop has a system tray, so the icon is shown there.
    bool available() const;
    QString toolTip() const;
    QIcon icon() const;
    QString iconPath() const; // the resource the icon comes from, e.g. ":/icons/tray-training.svg"
    QMenu* menu() const;

    QAction* openAction() const { return open_; }
    QAction* pauseResumeAction() const { return pauseResume_; }
    QAction* finishStepAction() const { return finishStep_; }
    QAction* snoozeAction(int hours) const; // 1, 3 or 6; nullptr otherwise
    QAction* cancelSnoozeAction() const { return cancelSnooze_; }
    QAction* quitAction() const { return quit_; }

    // Shows `notice` in the tray (the same text again within a minute is dropped) and emits notified().
    void notify(const Notice& notice);

    // The user asked to leave: the Offline state that follows is no disconnection to notify.
    void expectLeave();

    // The app is stopping: the tooltip says so and the menu offers nothing more until the process ends.
    void showStopping();

    // ":/icons/tray-<state>.svg"; Joining shares the waiting icon.
    static QString iconPathFor(engine::EngineState state);
    // The state's icon, or a standard icon of the style when the resource is missing.
    static QIcon iconFor(engine::EngineState state);
    // The application's icon, with the same fallback.
    static QIcon appIcon();
    static QString toolTipFor(const engine::EngineSnapshot& snapshot);
    // What to notify when the state goes from `before` to `now.state`: a disconnection is leaving Training or
    // Waiting for Offline or Error without the user asking (`userAsked`: the user left, or the demo ended).
    // Nothing when notifications are off.
    static std::optional<Notice> disconnectionNotice(engine::EngineState before,
                                                     const engine::EngineSnapshot& now, bool userAsked,
                                                     bool notificationsOn);
    // What to notify when the engine loses touch with the collaboration while running (`before`: it had
    // not): "disconnected — retrying". Nothing when notifications are off.
    static std::optional<Notice> lostNotice(bool before, const engine::EngineSnapshot& now,
                                            bool notificationsOn);
    // What to notify when the run's coordinator stops answering while the others train on (`before`: it
    // answered): training goes on, newcomers cannot join. Nothing when notifications are off, or when the
    // whole collaboration is lost (lostNotice says that).
    static std::optional<Notice> coordinatorNotice(bool before, const engine::EngineSnapshot& now,
                                                   bool notificationsOn);
    // Errors and milestones are notified, the rest only logged. Nothing when notifications are off. An
    // error while the engine was joining (`state`) says that joining failed: nothing had started. An error
    // whose kind is known is worded for the volunteer (StateText::problem), the rest as the engine says it.
    static std::optional<Notice> eventNotice(const engine::EngineEvent& event, engine::EngineState state,
                                             bool notificationsOn);

Q_SIGNALS:
    void openRequested();
    void quitRequested();
    // A notice was decided (shown in the tray when there is one; the window shows it otherwise).
    void notified(const QString& title, const QString& text);

private:
    void buildMenu();
    void render();
    void onSnapshot();
    void onEvent(const engine::EngineEvent& event);

    engine::EngineFacade& engine_;
    AppController& controller_;
    std::unique_ptr<QMenu> menu_;
    std::unique_ptr<QSystemTrayIcon> tray_;
    QAction* open_ = nullptr;
    QAction* pauseResume_ = nullptr;
    QAction* finishStep_ = nullptr;
    QAction* snooze1_ = nullptr;
    QAction* snooze3_ = nullptr;
    QAction* snooze6_ = nullptr;
    QAction* cancelSnooze_ = nullptr;
    bool stopping_ = false;
    bool lastLost_ = false;
    bool lastCoordinatorLost_ = false;
    QAction* quit_ = nullptr;
    engine::EngineState lastState_ = engine::EngineState::Offline;
    bool leaveExpected_ = false;
    QString lastNoticeText_;
    qint64 lastNoticeMs_ = 0;
};

} // namespace sahaj::ui
