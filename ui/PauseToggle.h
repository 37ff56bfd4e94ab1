#pragma once

#include "core/engine/EngineSnapshot.h"

#include <QCoreApplication>
#include <QString>

namespace sahaj::ui {

class AppController;

// The one Pause/Resume control the tray, the control bar and the menus share: what it means in a given state
// and what it does. It resumes only what the user paused (a pause or a snooze); a pause that a rule decided
// (battery, schedule...) is not the user's to resume, so the control offers to pause on top of it instead,
// which keeps the engine paused once the rule lifts.
class PauseToggle {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::PauseToggle)

public:
    enum class Action { Pause, Resume, CancelSnooze };

    static Action next(const engine::EngineSnapshot& snapshot);
    // Only a joined engine can be paused or resumed.
    static bool enabled(const engine::EngineSnapshot& snapshot);
    // "&Pause" or "&Resume" (with the mnemonic).
    static QString text(const engine::EngineSnapshot& snapshot);
    static void trigger(const engine::EngineSnapshot& snapshot, AppController& controller);
    // Joined: Waiting, Training, Paused or Snoozed (what snoozing and pausing need).
    static bool joined(engine::EngineState state);
    // "Finish this step, then pause" (the control bar's button, the tray's item): while computing or
    // waiting for a group, and not already asked.
    static bool canFinishStep(const engine::EngineSnapshot& snapshot);
};

} // namespace sahaj::ui
