#include "core/engine/PausePolicy.h"

#include <QDateTime>

namespace sahaj::engine {

PausePolicy::Rules PausePolicy::Rules::of(const engine::VolunteerSettings& settings) {
    Rules rules;
    rules.pauseOnBattery = settings.pauseOnBattery;
    rules.onlyWhenIdle = settings.onlyWhenIdle;
    rules.idleMinutes = settings.idleMinutes;
    rules.gpuWhileActive = settings.gpuWhileActive;
    rules.scheduleEnabled = settings.scheduleEnabled;
    rules.schedule = settings.schedule;
    rules.dailyQuotaMB = settings.dailyQuotaMB;
    return rules;
}

PausePolicy::LocalHour PausePolicy::LocalHour::at(qint64 nowMs, const QTimeZone& zone) {
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(nowMs, zone.isValid() ? zone : QTimeZone::utc());
    // Qt numbers the days 1 = Monday .. 7 = Sunday; the schedule's bits start at Monday = 0.
    return LocalHour{local.date().dayOfWeek() - 1, local.time().hour()};
}

PausePolicy::Decision PausePolicy::operator()(const Inputs& in) const {
    const Rules& rules = in.rules;
    Decision decision;

    QStringList warnings;
    if (rules.pauseOnBattery && !in.onBattery.has_value())
        warnings << tr("battery state unknown on this machine: the battery rule cannot apply");
    const bool gpuRule = in.computesOnGpu && !rules.gpuWhileActive;
    if (rules.onlyWhenIdle && !in.idleMs.has_value())
        warnings << tr("idle time unknown on this desktop: the idle rule cannot apply");
    else if (gpuRule && !in.idleMs.has_value())
        warnings << tr("idle time unknown on this desktop: the GPU computes while the computer is in use");
    decision.warning = warnings.join(QLatin1Char(' '));

    const qint64 quotaBytes = rules.dailyQuotaMB > 0 ? rules.dailyQuotaMB * kBytesPerMB : 0;
    const bool outsideWeek = in.local.day < 0 || in.local.day > 6 || in.local.hour < 0 || in.local.hour > 23;
    if (in.userPaused)
        decision.cause = PauseCause::User;
    else if (in.snoozeUntilMs > in.nowMs)
        decision.cause = PauseCause::Snooze;
    else if (quotaBytes > 0 && in.transferTodayBytes >= quotaBytes)
        decision.cause = PauseCause::QuotaReached;
    else if (rules.pauseOnBattery && in.onBattery.value_or(false))
        decision.cause = PauseCause::OnBattery;
    // An hour that is not on the clock cannot be allowed: such inputs are a caller's mistake, and pausing
    // is the safe side of it.
    else if (rules.scheduleEnabled &&
             (outsideWeek || !rules.schedule.test(in.local.day * 24 + in.local.hour)))
        decision.cause = PauseCause::OutsideSchedule;
    else if ((rules.onlyWhenIdle || gpuRule) && in.idleMs.has_value() &&
             *in.idleMs < qint64(rules.idleMinutes) * 60 * 1000)
        decision.cause = PauseCause::UserActive;
    if (decision.cause == PauseCause::Snooze)
        decision.untilMs = in.snoozeUntilMs;
    return decision;
}

} // namespace sahaj::engine
