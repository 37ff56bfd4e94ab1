#include "ui/StateText.h"

#include "ui/format/Figures.h"

#include <QDateTime>
#include <QLocale>

namespace sahaj::ui {

namespace {

const QString kSeparator = QStringLiteral(" · ");

bool isStopped(engine::EngineState state) {
    return state == engine::EngineState::Paused || state == engine::EngineState::Snoozed;
}

} // namespace

QString StateText::state(engine::EngineState state) {
    switch (state) {
    case engine::EngineState::Offline:
        return tr("Offline");
    case engine::EngineState::Joining:
        return tr("Joining");
    case engine::EngineState::Waiting:
        return tr("Waiting for the collaboration");
    case engine::EngineState::Training:
        return tr("Training");
    case engine::EngineState::Paused:
        return tr("Paused");
    case engine::EngineState::Snoozed:
        return tr("Snoozed");
    case engine::EngineState::Error:
        return tr("Error");
    }
    return tr("Unknown");
}

QString StateText::cause(engine::PauseCause cause, qint64 snoozedUntilMs) {
    switch (cause) {
    case engine::PauseCause::None:
        return {};
    case engine::PauseCause::User:
        return tr("Paused by you");
    case engine::PauseCause::Snooze: {
        if (snoozedUntilMs <= 0)
            return tr("Snoozed");
        const QDateTime end = QDateTime::fromMSecsSinceEpoch(snoozedUntilMs);
        // The date only matters when the snooze ends on another day (a 6 h snooze in the evening).
        const QString when =
            end.date() == QDate::currentDate() ? Figures::clock(end.time()) : Figures::dateAndClock(end);
        return tr("Snoozed until %1").arg(when);
    }
    case engine::PauseCause::OnBattery:
        return tr("Paused: running on battery");
    case engine::PauseCause::UserActive:
        return tr("Paused: you are using the computer (computing only while idle)");
    case engine::PauseCause::OutsideSchedule:
        return tr("Paused: outside your weekly schedule");
    case engine::PauseCause::QuotaReached:
        return tr("Paused: today's transfer quota is reached");
    }
    return {};
}

QString StateText::problem(engine::JoinProblem problem, const QString& reason) {
    switch (problem) {
    case engine::JoinProblem::None:
        return {};
    case engine::JoinProblem::OrganiserUnreachable:
        return tr("the run's organiser could not be reached to admit this computer (the run may be down, or "
                  "this computer offline): try joining again later");
    case engine::JoinProblem::OrganiserRefused:
        return reason.isEmpty() ? tr("the run's organiser refused this computer")
                                : tr("the run's organiser refused this computer: %1").arg(reason);
    }
    return {};
}

QString StateText::reason(const engine::EngineSnapshot& snapshot) {
    if (isStopped(snapshot.state))
        return cause(snapshot.cause, snapshot.snoozedUntilMs);
    const bool running =
        snapshot.state == engine::EngineState::Training || snapshot.state == engine::EngineState::Waiting;
    if (running && snapshot.collaborationLost)
        return tr("disconnected from the collaboration — retrying");
    if (running && snapshot.coordinatorLost)
        return tr("the run's coordinator does not answer; training goes on with the other volunteers");
    if (snapshot.state == engine::EngineState::Training && snapshot.finishingStep)
        return tr("pausing after this step");
    if (snapshot.state == engine::EngineState::Error)
        if (const QString words = problem(snapshot.problem, snapshot.problemReason); !words.isEmpty())
            return words;
    // The engine's own words for an error or for what it waits for.
    if (snapshot.state == engine::EngineState::Error || snapshot.state == engine::EngineState::Waiting ||
        snapshot.state == engine::EngineState::Joining)
        return snapshot.detail;
    return {};
}

QString StateText::samplesPerSecond(double samplesPerSecond) {
    const int decimals = samplesPerSecond > 0 && samplesPerSecond < 10 ? 1 : 0;
    return tr("%1 samples/s").arg(Figures::decimal(samplesPerSecond, decimals));
}

QString StateText::rates(const engine::EngineSnapshot& snapshot) {
    return tr("↑ %1 ↓ %2")
        .arg(Figures::rate(snapshot.uploadBytesPerSecond), Figures::rate(snapshot.downloadBytesPerSecond));
}

bool StateText::demoFinished(const engine::EngineSnapshot& snapshot, bool demo) {
    return demo && snapshot.state == engine::EngineState::Offline && snapshot.runFinished;
}

QString StateText::headline(const engine::EngineSnapshot& snapshot, bool demo) {
    if (demoFinished(snapshot, demo))
        return tr("Demo finished — to join a real run, quit the demo and choose Join… in Sahaj");
    // A pause's reason already says "Paused" or "Snoozed": it stands in for the state's name.
    const QString why = reason(snapshot);
    if (why.isEmpty())
        return state(snapshot.state);
    if (isStopped(snapshot.state))
        return why;
    return tr("%1 — %2").arg(state(snapshot.state), why);
}

QString StateText::statusLine(const engine::EngineSnapshot& snapshot, bool demo) {
    QString line = headline(snapshot, demo);
    if (snapshot.state == engine::EngineState::Training)
        line += kSeparator + samplesPerSecond(snapshot.localSamplesPerSecond);
    if (snapshot.state == engine::EngineState::Training || snapshot.state == engine::EngineState::Waiting)
        line += kSeparator + rates(snapshot);
    return line;
}

} // namespace sahaj::ui
