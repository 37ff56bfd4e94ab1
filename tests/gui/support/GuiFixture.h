#pragma once

#include "tests/gui/support/RecordingEngine.h"
#include "tests/gui/support/TestSensors.h"
#include "ui/AppController.h"

#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace sahaj::testing {

// The names the fixture's tests speak in, for those that write `using namespace sahaj::testing;`.
using engine::EngineSnapshot;
using engine::EngineState;
using engine::PauseCause;
using engine::VolunteerSettings;
using ui::AppController;

// An hour in milliseconds, as snoozes and idle times are counted.
constexpr qint64 kHourMs = 3600 * 1000;

// Now, in milliseconds since the epoch: the clock the controller and the snapshots' times are read against.
qint64 nowMs();

// One volunteer's machine as the GUI tests build it: a settings file and a contribution ledger in a
// temporary folder, an engine, and, once startController() is called, the controller over them with sensors
// the test sets by hand. A test that needs widgets keeps them in a struct deriving from this one, so that
// they go before the controller and the engine they hold references to. Building one turns on
// QStandardPaths' test mode: what the app keeps under its data folders goes to a test location, never
// the user's.
class GuiFixture {
public:
    // The engine as it starts: offline, nothing known (a first run).
    GuiFixture();
    // The engine shows busySnapshot() in `state`.
    explicit GuiFixture(EngineState state);
    explicit GuiFixture(const EngineSnapshot& snapshot);

    QTemporaryDir dir;
    const QString settingsPath = dir.filePath(QStringLiteral("settings.ini"));
    const QString ledgerPath = dir.filePath(QStringLiteral("ledger.sqlite"));
    // A pointer so that a test can restart the engine on the same files (drop the controller first).
    std::unique_ptr<RecordingEngine> engine = std::make_unique<RecordingEngine>(ledgerPath);
    TestSensors* sensors = nullptr; // owned by the controller
    std::unique_ptr<AppController> controller;

    // Builds a controller, with new sensors, on the settings file as it is now; an earlier one goes first,
    // as at a restart of the app.
    AppController& startController();
    // The settings file as saved, empty when there is none.
    QByteArray savedSettingsBytes() const;

    // The engine's last control call, empty when there was none.
    QString lastCall() const;
    // Whether the engine was asked to join a run.
    bool joined() const;
};

} // namespace sahaj::testing
