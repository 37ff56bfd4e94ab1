#pragma once

#include <QString>

namespace sahaj::engine {

// What the volunteer's engine is doing, as the tray icon and the window show it.
enum class EngineState {
    Offline,  // not in a collaboration: before Join, after Leave
    Joining,  // building the model, asking for a token, connecting to the coordinator
    Waiting,  // joined, but not computing: no peers heard yet, a state downloading, a group forming
    Training, // computing this peer's share of the batch
    Paused,   // in no collaboration until resumed, by the user or a pause rule (see PauseCause)
    Snoozed,  // paused until a time the user chose
    Error,    // joining or training failed; the snapshot's detail says why
};

// Why the engine is paused or snoozed. The UI words each for the user (and translates it).
enum class PauseCause {
    None,
    User,            // Pause clicked, or "finish this step, then pause" reached its step
    Snooze,          // snoozed for 1, 3 or 6 hours
    OnBattery,       // the machine runs on battery and the user asked to pause then
    UserActive,      // the user is at the machine and asked to compute only while idle
    OutsideSchedule, // outside the weekly hours the user allowed
    QuotaReached,    // today's transfer reached the user's daily quota
};

// Why joining failed, where the UI says it in the volunteer's words; the engine's text (the snapshot's
// detail, the log) keeps the technical account. Other failures are shown as the engine words them.
enum class JoinProblem {
    None,
    OrganiserUnreachable, // the run's coordinator (its DHT node, its token endpoint) did not answer
    OrganiserRefused,     // its token endpoint refused this peer: a wrong password, a used invite, ...
};

// Whether Join can start from `state`: nothing runs (never joined, left, or failed).
inline bool canJoin(EngineState state) {
    return state == EngineState::Offline || state == EngineState::Error;
}

// Stable names for logs, settings and tests ("training", "on_battery", ...).
QString engineStateName(EngineState state);
QString pauseCauseName(PauseCause cause);

} // namespace sahaj::engine
