#pragma once

#include "core/engine/EngineSnapshot.h"
#include "core/engine/EngineState.h"

#include <QCoreApplication>
#include <QString>

namespace sahaj::ui {

// How the window, the control bar and the tray word the engine's state and the reason for a pause, in
// the user's language. One place, so that the tray's tooltip and the window never disagree.
class StateText {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::StateText)

public:
    // "Training", "Paused", "Waiting for the collaboration", ...
    static QString state(engine::EngineState state);
    // Why the engine is paused: "Paused: running on battery", "Snoozed until 14:30" (the end in the
    // locale's time format, with the date when it is not today). Empty for PauseCause::None.
    static QString cause(engine::PauseCause cause, qint64 snoozedUntilMs = 0);
    // Why joining failed, in the volunteer's words: "the run's organiser refused this computer: <reason>".
    // Empty for JoinProblem::None (the engine's own words are all there is then).
    static QString problem(engine::JoinProblem problem, const QString& reason);
    // The reason that goes with the snapshot's state: the pause cause, the error (in the volunteer's words
    // where its kind is known), what the engine waits for, that it will pause after this step, or that the
    // collaboration or its coordinator is out of reach. Empty when there is nothing to add.
    static QString reason(const engine::EngineSnapshot& snapshot);
    // The state with its reason, for a label: "Paused: running on battery", "Training — pausing after
    // this step", "Error — <what went wrong>". A pause's reason already names the state and stands alone.
    // In the demo (`demo`), the end of its run says that the demo finished and how to join a real run.
    static QString headline(const engine::EngineSnapshot& snapshot, bool demo = false);
    // One line for the status bar: "Training · 21 samples/s · ↑ 1.5 MB/s ↓ 2.3 MB/s"; a paused engine
    // says why instead of its speed.
    static QString statusLine(const engine::EngineSnapshot& snapshot, bool demo = false);
    // The demo's run reached its last step (`demo` and a finished run): its end is no disconnection.
    static bool demoFinished(const engine::EngineSnapshot& snapshot, bool demo);
    // "21 samples/s" (one decimal below 10).
    static QString samplesPerSecond(double samplesPerSecond);
    // "↑ 1.5 MB/s ↓ 2.3 MB/s"
    static QString rates(const engine::EngineSnapshot& snapshot);
};

} // namespace sahaj::ui
