#pragma once

#include "core/engine/EngineState.h"

#include <QMetaType>
#include <QString>

namespace sahaj::engine {

// One line of the event log: what the engine did or what went wrong, when.
struct EngineEvent {
    enum class Level {
        Info,      // joined, left, a group formed, a state downloaded
        Warning,   // a round fell back, a peer was excluded, a token renewal failed
        Error,     // joining or training failed
        Milestone, // a round number of epochs or samples contributed (notified when the user wants)
    };

    qint64 timeMs = 0; // ms since 1970-01-01T00:00Z
    Level level = Level::Info;
    QString text;
    // A milestone's figure (global steps contributed), for the UI to word in the user's language: the text
    // is the log's English.
    qint64 steps = 0;
    // The same for a pause ("paused (quota_reached)"): its cause, and a snooze's end.
    PauseCause cause = PauseCause::None;
    qint64 snoozedUntilMs = 0;
    // The same for an error that ended a join, and the organiser's words for a refusal.
    JoinProblem problem = JoinProblem::None;
    QString problemReason{};
};

QString eventLevelName(EngineEvent::Level level);

} // namespace sahaj::engine

Q_DECLARE_METATYPE(sahaj::engine::EngineEvent)
