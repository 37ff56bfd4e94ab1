#include "core/engine/EngineState.h"

namespace sahaj::engine {

QString engineStateName(EngineState state) {
    switch (state) {
    case EngineState::Offline:
        return QStringLiteral("offline");
    case EngineState::Joining:
        return QStringLiteral("joining");
    case EngineState::Waiting:
        return QStringLiteral("waiting");
    case EngineState::Training:
        return QStringLiteral("training");
    case EngineState::Paused:
        return QStringLiteral("paused");
    case EngineState::Snoozed:
        return QStringLiteral("snoozed");
    case EngineState::Error:
        return QStringLiteral("error");
    }
    return QStringLiteral("unknown");
}

QString pauseCauseName(PauseCause cause) {
    switch (cause) {
    case PauseCause::None:
        return QStringLiteral("none");
    case PauseCause::User:
        return QStringLiteral("user");
    case PauseCause::Snooze:
        return QStringLiteral("snooze");
    case PauseCause::OnBattery:
        return QStringLiteral("on_battery");
    case PauseCause::UserActive:
        return QStringLiteral("user_active");
    case PauseCause::OutsideSchedule:
        return QStringLiteral("outside_schedule");
    case PauseCause::QuotaReached:
        return QStringLiteral("quota_reached");
    }
    return QStringLiteral("unknown");
}

} // namespace sahaj::engine
