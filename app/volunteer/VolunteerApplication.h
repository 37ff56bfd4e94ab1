#pragma once

#include "app/volunteer/DemoSession.h"
#include "app/volunteer/SingleInstance.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTranslator>

#include <memory>

namespace sahaj::engine {
class VolunteerEngine;
}
namespace sahaj::ui {
class AppController;
class MainWindow;
} // namespace sahaj::ui

namespace sahaj::volunteer {

class DemoFillMaskRun;
class ScreenshotTour;
class StopSignalNotifier;

// sahaj-volunteer put together: the language (the settings', else the system's), the engine, the
// controller of settings and pause rules, the window with its tray icon, "start at login", and in demo mode
// the embedded local collaboration the app joins at once. Quitting leaves the run politely first.
class VolunteerApplication : public QObject {
    Q_OBJECT
public:
    struct Options {
        bool demo = false;
        bool minimized = false;   // start in the tray (login autostart)
        QString settingsPath;     // empty: the user's (AppConfigLocation/settings.ini)
        QString language;         // "en", "bn"; empty: the settings', else the system's
        QString screenshotFolder; // render every panel there once the demo is alive, then quit
        bool quit = false;        // ask the running app to stop, wait until it has, and exit
    };

    // What start() did: the app runs (exec the event loop), or this launch is over (another app was told
    // to show its window or to quit, or something stops the app) with `message` and `exitCode`.
    struct Started {
        bool running = false;
        int exitCode = 0;
        QString message;
    };

    // How long a launch waits for an app that is starting or stopping, and the bound on stopping: the
    // leave is given kPoliteQuitMs, and the process ends by kQuitBoundMs after Quit whatever still runs.
    static constexpr int kPoliteQuitMs = 15000;
    static constexpr int kQuitBoundMs = 30000;
    static constexpr int kInstanceWaitMs = kQuitBoundMs + 10000;

    explicit VolunteerApplication(Options options);
    ~VolunteerApplication() override;

    // Becomes the one app for its settings (or tells the running one), builds everything and shows the
    // window (or only the tray icon).
    Started start();

private:
    void installTranslator(const QString& settingsPath);
    void startDemo();
    // The demo's run reached its last step: once its peers stopped, the fill-mask before and after training
    // (DemoFillMaskRun), shown in the window (DemoOutcome).
    void showDemoOutcome();
    // The wizard's "Try the demo": `sahaj-volunteer --demo` as a process of its own (its own settings,
    // ledger and window), in this app's language.
    void launchDemo();
    void quitPolitely();
    void applyStartAtLogin();

    Options options_;
    std::unique_ptr<SingleInstance> instance_;
    std::unique_ptr<QTemporaryDir> demoRoot_;
    QTranslator translator_;
    std::unique_ptr<engine::VolunteerEngine> engine_;
    std::unique_ptr<ui::AppController> controller_;
    std::unique_ptr<ui::MainWindow> window_;
    std::unique_ptr<DemoSession> demo_;
    std::unique_ptr<DemoFillMaskRun> fillMask_;
    bool demoEnded_ = false;
    std::unique_ptr<ScreenshotTour> tour_;
    std::unique_ptr<StopSignalNotifier> stopSignals_;
    bool startAtLogin_ = false;
    bool quitting_ = false;
    QElapsedTimer quitClock_;
};

} // namespace sahaj::volunteer
