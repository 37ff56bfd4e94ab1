#pragma once

#include "app/volunteer/DemoSession.h"

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

class ScreenshotTour;

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
    };

    explicit VolunteerApplication(Options options);
    ~VolunteerApplication() override;

    // Builds everything and shows the window (or only the tray icon). Returns a problem that stops the app
    // (printed by main), empty when running.
    QString start();

private:
    void installTranslator(const QString& settingsPath);
    void startDemo();
    void quitPolitely();
    void applyStartAtLogin();

    Options options_;
    std::unique_ptr<QTemporaryDir> demoRoot_;
    QTranslator translator_;
    std::unique_ptr<engine::VolunteerEngine> engine_;
    std::unique_ptr<ui::AppController> controller_;
    std::unique_ptr<ui::MainWindow> window_;
    std::unique_ptr<DemoSession> demo_;
    std::unique_ptr<ScreenshotTour> tour_;
    bool startAtLogin_ = false;
    bool quitting_ = false;
    QElapsedTimer quitClock_;
};

} // namespace sahaj::volunteer
