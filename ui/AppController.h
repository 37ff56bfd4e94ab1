#pragma once

#include "core/engine/EngineFacade.h"
#include "core/engine/PausePolicy.h"
#include "core/engine/VolunteerSettings.h"
#include "ui/system/SystemSensors.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>

namespace sahaj::ui {

// The volunteer's controls and automatic pause rules, between the widgets and the engine: it owns the
// settings file, decides with PausePolicy whether the engine should run, and tells the engine when that
// changes. The widgets (window, tray, settings dialog) call it and render its signals; none of them pause
// the engine themselves, so one place knows why the engine is paused.
//
// Pause and snooze are settings (userPaused, snoozeUntilMs): they survive a restart, and a controller built
// on the same file applies them again as soon as the engine has joined.
class AppController : public QObject {
    Q_OBJECT
public:
    // Loads the settings at `settingsPath` (problems come as warning() signals once the event loop runs) and
    // starts deciding the rules: every 15 s, when a sensor changes and when the engine's
    // state does. `sensors` may be null (no sensors: both unknown).
    AppController(engine::EngineFacade& engine, QString settingsPath, std::unique_ptr<SystemSensors> sensors,
                  QObject* parent = nullptr);
    ~AppController() override;

    const engine::VolunteerSettings& settings() const { return settings_; }
    // Saves `settings` and applies them at once (limits through engine.setLimits, rules decided again).
    // Returns the problems that refused them, with nothing saved and the engine untouched; empty: applied.
    // The pause and snooze state stays the controls' (pauseByUser, snooze...): the values `settings`
    // carries for them are ignored.
    QStringList applySettings(const engine::VolunteerSettings& settings);

    // Joins the run the settings name, with `secret` (a password or invite code, never stored) and this
    // peer's keys under the app data folder. Returns the problem, empty: joining.
    // A join that starts is remembered (rejoinOnStart), until leave().
    QString join(const QString& secret);
    void leave();
    // At the app's start: joins again, without a secret, when the volunteer had joined and neither left
    // nor paused (a paused one joins on resumeByUser). Returns the problem, empty: joining or nothing to do.
    QString rejoin();

    void pauseByUser();
    // Clears the user's pause and any snooze; the automatic rules still apply. Offline, it joins again the
    // run the volunteer had not left (rejoin()).
    void resumeByUser();
    // The engine pauses after its next global step; the pause is then the user's, and persisted.
    void finishStepThenPause();
    // 1, 3 or 6 hours; other values are refused (logged, nothing changes). Persisted.
    void snooze(int hours);
    void cancelSnooze();

    // The cause in force (the user's, a snooze or a rule), None while the engine may run.
    engine::PauseCause activeCause() const { return decision_.cause; }
    // A rule that cannot apply on this machine, e.g. "idle time unknown on this desktop: the idle rule
    // cannot apply"; empty when every rule can.
    QString activeWarning() const { return decision_.warning; }
    // Decides the rules again and tells the engine when the decision changed.
    void evaluateRules();

    // This app is the demo (`sahaj-volunteer --demo`): the end of its run is the demo's, which the window
    // and the tray word as such (StateText::headline), and no disconnection.
    void setDemo(bool demo) { demo_ = demo; }
    bool demo() const { return demo_; }

Q_SIGNALS:
    void settingsChanged();
    void causeChanged(sahaj::engine::PauseCause cause);
    // A problem the user should know of: a settings file that did not load cleanly, a save that failed.
    void warning(const QString& text);

private:
    // What the engine is told: a pause cause (None: run) and, for a snooze, its end.
    struct Command {
        engine::PauseCause cause = engine::PauseCause::None;
        qint64 untilMs = 0;
        bool operator==(const Command&) const = default;
    };

    void decideAndApply();
    void command(const Command& want);
    void onSnapshotChanged();
    // Saves the settings the controls changed; a failure is reported, the change stays in force.
    void persist();
    void report(const QString& text);

    engine::EngineFacade& engine_;
    QString settingsPath_;
    std::unique_ptr<SystemSensors> sensors_;
    engine::VolunteerSettings settings_;
    engine::PausePolicy policy_;
    engine::PausePolicy::Decision decision_;
    // What the engine was last told (cause and snooze end), nullopt: nothing since it joined.
    std::optional<Command> commanded_;
    engine::EngineState lastState_ = engine::EngineState::Offline;
    engine::PauseCause lastEngineCause_ = engine::PauseCause::None;
    QTimer evaluateTimer_;
    QTimer snoozeEndTimer_;
    bool evaluating_ = false;
    bool demo_ = false;
    bool evaluateAgain_ = false;
};

} // namespace sahaj::ui
