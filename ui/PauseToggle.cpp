#include "ui/PauseToggle.h"

#include "ui/AppController.h"

namespace sahaj::ui {

PauseToggle::Action PauseToggle::next(const engine::EngineSnapshot& snapshot) {
    if (snapshot.state == engine::EngineState::Snoozed)
        return Action::CancelSnooze;
    if (snapshot.state == engine::EngineState::Paused && snapshot.cause == engine::PauseCause::User)
        return Action::Resume;
    return Action::Pause;
}

bool PauseToggle::joined(engine::EngineState state) {
    return state == engine::EngineState::Waiting || state == engine::EngineState::Training ||
           state == engine::EngineState::Paused || state == engine::EngineState::Snoozed;
}

bool PauseToggle::enabled(const engine::EngineSnapshot& snapshot) {
    return joined(snapshot.state);
}

QString PauseToggle::text(const engine::EngineSnapshot& snapshot) {
    return next(snapshot) == Action::Pause ? tr("&Pause") : tr("&Resume");
}

void PauseToggle::trigger(const engine::EngineSnapshot& snapshot, AppController& controller) {
    switch (next(snapshot)) {
    case Action::Pause:
        controller.pauseByUser();
        return;
    case Action::Resume:
        controller.resumeByUser();
        return;
    case Action::CancelSnooze:
        controller.cancelSnooze();
        return;
    }
}

bool PauseToggle::canFinishStep(const engine::EngineSnapshot& snapshot) {
    return (snapshot.state == engine::EngineState::Training ||
            snapshot.state == engine::EngineState::Waiting) &&
           !snapshot.finishingStep;
}

} // namespace sahaj::ui
