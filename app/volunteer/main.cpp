// sahaj-volunteer: the desktop app. It lives in the tray, shows this peer's contribution, its share of the
// bandwidth, the peers on a map and the training, and obeys the limits and pause rules the user sets.
#include "app/volunteer/VolunteerApplication.h"
#include "core/Version.h"
#include "core/engine/MallocPolicy.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include <iostream>
#include <optional>

namespace {

void nameTheApplication() {
    QCoreApplication::setOrganizationName(QStringLiteral("Sahaj"));
    QCoreApplication::setApplicationName(QStringLiteral("sahaj"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(sahaj::kVersion));
}

// The options, read before the GUI starts: --help, --version and a bad option need no display (without
// one, QApplication aborts), and a machine without a display is told what to run instead.
std::optional<sahaj::volunteer::VolunteerApplication::Options> readOptions(int argc, char* argv[],
                                                                           int* exitCode) {
    QCoreApplication probe(argc, argv);
    nameTheApplication();
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Sahaj volunteer: lend this computer to a collaborative training run."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {"demo",
         "Join an embedded local collaboration (a coordinator and two volunteers on this machine) to see "
         "every panel alive."},
        {"minimized", "Start in the tray (as at login)."},
        {"settings", "Use this settings file instead of the user's.", "FILE"},
        {"language", "Show the app in this language: en or bn (default: the settings', else the system's).",
         "LANG"},
        {"quit", "Ask the running app to stop, and wait until it has stopped."},
        {"screenshots",
         "With --demo: once the demo is alive, render every panel into FOLDER as PNG files, then quit.",
         "FOLDER"},
    });
    parser.process(probe); // --help, --version and unknown options end here

    sahaj::volunteer::VolunteerApplication::Options options;
    options.demo = parser.isSet("demo");
    options.minimized = parser.isSet("minimized");
    options.settingsPath = parser.value("settings");
    options.language = parser.value("language");
    options.screenshotFolder = parser.value("screenshots");
    options.quit = parser.isSet("quit");
    *exitCode = 2;
    if (!options.language.isEmpty() && options.language != "en" && options.language != "bn") {
        std::cerr << "sahaj-volunteer: --language must be en or bn\n";
        return std::nullopt;
    }
    if (options.quit && options.demo) {
        std::cerr << "sahaj-volunteer: --quit stops the app that runs with your settings, not a demo\n";
        return std::nullopt;
    }
    if (!options.screenshotFolder.isEmpty() && !options.demo) {
        std::cerr << "sahaj-volunteer: --screenshots needs --demo (the panels need live data)\n";
        return std::nullopt;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        std::cerr << "sahaj-volunteer: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): the desktop "
                     "app needs one. On a machine without a display, volunteer with `sahaj-node volunteer "
                     "--join LINK` (or try `sahaj-node demo`).\n";
        return std::nullopt;
    }
    *exitCode = 0;
    return options;
}

} // namespace

int main(int argc, char* argv[]) {
    sahaj::engine::MallocPolicy::apply(); // the engine runs in this process
    int exitCode = 0;
    const std::optional<sahaj::volunteer::VolunteerApplication::Options> options =
        readOptions(argc, argv, &exitCode);
    if (!options)
        return exitCode;

    QApplication app(argc, argv);
    nameTheApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("Sahaj"));
    QApplication::setDesktopFileName(QStringLiteral("org.sahaj.Sahaj"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/org.sahaj.Sahaj.svg")));
    // The window stays away while in the tray: closing it must not end the app (MainWindow decides).
    QApplication::setQuitOnLastWindowClosed(false);

    sahaj::volunteer::VolunteerApplication volunteer(*options);
    const sahaj::volunteer::VolunteerApplication::Started started = volunteer.start();
    if (!started.running) {
        (started.exitCode == 0 ? std::cout : std::cerr)
            << "sahaj-volunteer: " << started.message.toStdString() << std::endl;
        return started.exitCode;
    }
    return QApplication::exec();
}
