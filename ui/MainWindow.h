#pragma once

#include <QMainWindow>
#include <QStringList>
#include <QTimer>

class QAction;
class QLabel;
class QTabWidget;

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

class AppController;
class BandwidthPanel;
class ControlBar;
class EventLogPanel;
class JoinRunDialog;
class JoinWizard;
class SettingsDialog;
class TrayIcon;

// The window: the controls on top, the five panels as tabs (Contribution, Bandwidth, Peers, Training,
// Log; Ctrl+1..5), a status bar with the state, its reason and the speed, and the menus (Sahaj: Join or
// Leave, Settings…, Quit; View: the tabs; Help: About). It owns the tray icon. Closing the window hides
// it to the tray where there is one; without a tray, closing quits (the window is the app there).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Tab { ContributionTab, BandwidthTab, PeersTab, TrainingTab, LogTab };

    MainWindow(engine::EngineFacade& engine, AppController& controller, QWidget* parent = nullptr);
    ~MainWindow() override;

    ControlBar* controlBar() const { return controlBar_; }
    QTabWidget* tabs() const { return tabs_; }
    TrayIcon* tray() const { return tray_; }
    QLabel* statusLine() const { return statusLine_; }
    QLabel* noticeLabel() const { return notice_; }
    QAction* joinLeaveAction() const { return joinLeave_; }
    QAction* settingsAction() const { return settings_; }
    QAction* quitAction() const { return quit_; }
    QAction* demoAction() const { return demo_; }
    QAction* copySystemReportAction() const { return copySystemReport_; }

    // The menu's Join…: the wizard on the first run, else the dialog to paste a run's link or pick one
    // from the run directory. Leave: leaves politely.
    void joinOrLeave();
    // The control bar's Join: the wizard on the first run, the join dialog when no run is chosen or the
    // chosen one cannot be joined, else straight in, asking for the run's password when it needs one.
    void join();
    // Opens the dialogs (window-modal, deleted on close) and returns them.
    SettingsDialog* openSettings();
    JoinWizard* openJoinWizard();
    JoinRunDialog* openJoinRunDialog();
    // Shows, raises and activates the window (the tray's Open).
    void showFromTray();
    // Quit was chosen (menu or tray): the app leaves and exits on quitRequested().
    void quit();
    // What the demo showed at its end (the app's demo mode), for the volunteer to read at leisure: each
    // line a row of the Log, and all of them in the notice beside the status line, which stays until
    // another notice takes its place.
    void showDemoOutcome(const QStringList& lines);

Q_SIGNALS:
    // The user wants the app to end: from Quit, or closing the window where there is no tray.
    void quitRequested();
    // The join wizard's "Try the demo": the app starts the demo, in a process of its own.
    void demoRequested();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void render();
    // Shown for kNoticeMs, or until the next notice when `lasting`.
    void showNotice(const QString& text, bool lasting = false);
    bool firstRunDone() const;
    // Joins the run in the settings, asking for its password when it needs one.
    void joinChosenRun();

    engine::EngineFacade& engine_;
    AppController& controller_;
    ControlBar* controlBar_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    BandwidthPanel* bandwidth_ = nullptr;
    EventLogPanel* log_ = nullptr;
    TrayIcon* tray_ = nullptr;
    QLabel* statusLine_ = nullptr;
    QLabel* notice_ = nullptr;
    QTimer noticeTimer_;
    QAction* joinLeave_ = nullptr;
    QAction* settings_ = nullptr;
    QAction* quit_ = nullptr;
    QAction* demo_ = nullptr;
    QAction* copySystemReport_ = nullptr;
    bool quitting_ = false;
    bool toldAboutTray_ = false;
};

} // namespace sahaj::ui
