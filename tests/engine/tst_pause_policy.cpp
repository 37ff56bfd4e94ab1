// The automatic pause rules: each rule on and off, their priority when several hold, a snooze running out,
// the weekly schedule at the edges of an hour and across the daylight saving changes of Europe/Berlin, and
// sensors the desktop cannot read (they never pause, and say so).
#include "core/engine/PausePolicy.h"

#include <QTest>

using sahaj::engine::PauseCause;
using sahaj::engine::PausePolicy;
using sahaj::engine::VolunteerSettings;

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr qint64 kHourMs = 60 * kMinuteMs;
// 2024-03-11T00:00:00Z, a Monday.
constexpr qint64 kMonday = 1710115200000;
// 2024-03-31T01:00:00Z: Berlin's clocks jump from 02:00 CET to 03:00 CEST (a Sunday).
constexpr qint64 kBerlinSpringForward = 1711846800000;
// 2024-10-27T01:00:00Z: Berlin's clocks fall back from 03:00 CEST to 02:00 CET (a Sunday).
constexpr qint64 kBerlinFallBack = 1729990800000;

const QTimeZone kDhaka(6 * 3600); // UTC+06:00, no daylight saving

const QString kIdleUnknown = QStringLiteral("idle time unknown on this desktop: the idle rule cannot apply");
const QString kBatteryUnknown =
    QStringLiteral("battery state unknown on this machine: the battery rule cannot apply");

// Every rule off, every sensor known and quiet: the engine runs.
PausePolicy::Inputs quiet(qint64 nowMs = kMonday + 12 * kHourMs) {
    PausePolicy::Inputs in;
    in.nowMs = nowMs;
    in.local = PausePolicy::LocalHour::at(nowMs, QTimeZone::utc());
    in.rules.pauseOnBattery = false;
    in.onBattery = false;
    in.idleMs = 10 * kHourMs;
    return in;
}

PauseCause decide(const PausePolicy::Inputs& in) {
    return PausePolicy()(in).cause;
}

VolunteerSettings::WeeklyHours onlyHour(int day, int hour) {
    return VolunteerSettings::WeeklyHours().set(day * 24 + hour);
}

} // namespace

class TestPausePolicy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void quietRuns() {
        const PausePolicy::Decision decision = PausePolicy()(quiet());
        QCOMPARE(decision.cause, PauseCause::None);
        QCOMPARE(decision.untilMs, 0);
        QVERIFY(decision.warning.isEmpty());
    }

    void userPause() {
        auto in = quiet();
        in.userPaused = true;
        QCOMPARE(decide(in), PauseCause::User);
        in.userPaused = false;
        QCOMPARE(decide(in), PauseCause::None);
    }

    void snoozeAndItsEnd() {
        auto in = quiet();
        in.snoozeUntilMs = in.nowMs + 3 * kHourMs;
        const PausePolicy::Decision snoozed = PausePolicy()(in);
        QCOMPARE(snoozed.cause, PauseCause::Snooze);
        QCOMPARE(snoozed.untilMs, in.nowMs + 3 * kHourMs);
        in.snoozeUntilMs = in.nowMs + 1;
        QCOMPARE(decide(in), PauseCause::Snooze);
        // The snooze ends at its time exactly.
        in.snoozeUntilMs = in.nowMs;
        const PausePolicy::Decision ended = PausePolicy()(in);
        QCOMPARE(ended.cause, PauseCause::None);
        QCOMPARE(ended.untilMs, 0);
        in.snoozeUntilMs = in.nowMs - kHourMs;
        QCOMPARE(decide(in), PauseCause::None);
        in.snoozeUntilMs = 0;
        QCOMPARE(decide(in), PauseCause::None);
    }

    void quota() {
        auto in = quiet();
        in.rules.dailyQuotaMB = 100;
        in.transferTodayBytes = 100 * PausePolicy::kBytesPerMB - 1;
        QCOMPARE(decide(in), PauseCause::None);
        in.transferTodayBytes = 100 * PausePolicy::kBytesPerMB;
        QCOMPARE(decide(in), PauseCause::QuotaReached);
        in.transferTodayBytes = 5000 * PausePolicy::kBytesPerMB;
        QCOMPARE(decide(in), PauseCause::QuotaReached);
        in.rules.dailyQuotaMB = 0; // no quota
        QCOMPARE(decide(in), PauseCause::None);
    }

    void battery() {
        auto in = quiet();
        in.rules.pauseOnBattery = true;
        in.onBattery = true;
        QCOMPARE(decide(in), PauseCause::OnBattery);
        in.onBattery = false;
        QCOMPARE(decide(in), PauseCause::None);
        in.onBattery = true;
        in.rules.pauseOnBattery = false;
        QCOMPARE(decide(in), PauseCause::None);
    }

    void schedule() {
        auto in = quiet(kMonday + 12 * kHourMs); // Monday 12:00 UTC
        in.rules.scheduleEnabled = true;
        in.rules.schedule = onlyHour(0, 12);
        QCOMPARE(decide(in), PauseCause::None);
        in.rules.schedule = onlyHour(0, 13);
        QCOMPARE(decide(in), PauseCause::OutsideSchedule);
        in.rules.schedule = onlyHour(1, 12); // Tuesday, not Monday
        QCOMPARE(decide(in), PauseCause::OutsideSchedule);
        in.rules.scheduleEnabled = false;
        QCOMPARE(decide(in), PauseCause::None);
        in.rules.schedule.reset();
        QCOMPARE(decide(in), PauseCause::None);
    }

    void idle() {
        auto in = quiet();
        in.rules.onlyWhenIdle = true;
        in.rules.idleMinutes = 5;
        in.idleMs = 5 * kMinuteMs - 1;
        QCOMPARE(decide(in), PauseCause::UserActive);
        in.idleMs = 0;
        QCOMPARE(decide(in), PauseCause::UserActive);
        in.idleMs = 5 * kMinuteMs;
        QCOMPARE(decide(in), PauseCause::None);
        in.rules.idleMinutes = 120;
        in.idleMs = 119 * kMinuteMs;
        QCOMPARE(decide(in), PauseCause::UserActive);
        in.rules.onlyWhenIdle = false;
        in.idleMs = 0;
        QCOMPARE(decide(in), PauseCause::None);
    }

    // A GPU computes only while the user is away, unless the user allows it (BOINC's
    // run_gpu_if_user_active, off by default); the CPU is not bound by that rule, and a GPU whose user's
    // idle time cannot be read keeps computing, with a warning.
    void theGpuRestsWhileTheComputerIsInUse() {
        auto in = quiet();
        QCOMPARE(in.rules.gpuWhileActive, false); // the default
        in.rules.idleMinutes = 5;
        in.idleMs = 2 * kMinuteMs;
        QCOMPARE(decide(in), PauseCause::None); // the CPU computes: no GPU rule
        in.computesOnGpu = true;
        QCOMPARE(decide(in), PauseCause::UserActive);
        in.idleMs = 5 * kMinuteMs;
        QCOMPARE(decide(in), PauseCause::None); // away long enough
        in.idleMs = 0;
        in.rules.gpuWhileActive = true;
        QCOMPARE(decide(in), PauseCause::None); // allowed
        in.rules.gpuWhileActive = false;
        in.idleMs = std::nullopt;
        const PausePolicy::Decision unknown = PausePolicy()(in);
        QCOMPARE(unknown.cause, PauseCause::None);
        QVERIFY2(unknown.warning.contains(QStringLiteral("the GPU computes")), qPrintable(unknown.warning));
        // Rules the user chose more directly still win.
        in.idleMs = 0;
        in.rules.pauseOnBattery = true;
        in.onBattery = true;
        QCOMPARE(decide(in), PauseCause::OnBattery);
        VolunteerSettings s;
        s.gpuWhileActive = true;
        QCOMPARE(PausePolicy::Rules::of(s).gpuWhileActive, true);
    }

    // All causes hold; removing the winner each time reveals the next:
    // User > Snooze > QuotaReached > OnBattery > OutsideSchedule > UserActive.
    void priority() {
        auto in = quiet(kMonday + 12 * kHourMs);
        in.userPaused = true;
        in.snoozeUntilMs = in.nowMs + kHourMs;
        in.rules.dailyQuotaMB = 50;
        in.transferTodayBytes = 60 * PausePolicy::kBytesPerMB;
        in.rules.pauseOnBattery = true;
        in.onBattery = true;
        in.rules.scheduleEnabled = true;
        in.rules.schedule = onlyHour(3, 3);
        in.rules.onlyWhenIdle = true;
        in.idleMs = 0;

        QCOMPARE(decide(in), PauseCause::User);
        in.userPaused = false;
        QCOMPARE(decide(in), PauseCause::Snooze);
        in.snoozeUntilMs = 0;
        QCOMPARE(decide(in), PauseCause::QuotaReached);
        in.transferTodayBytes = 0;
        QCOMPARE(decide(in), PauseCause::OnBattery);
        in.onBattery = false;
        QCOMPARE(decide(in), PauseCause::OutsideSchedule);
        in.rules.schedule.set();
        QCOMPARE(decide(in), PauseCause::UserActive);
        in.idleMs = kHourMs;
        QCOMPARE(decide(in), PauseCause::None);
    }

    void rulesFromSettings() {
        VolunteerSettings s;
        s.pauseOnBattery = false;
        s.onlyWhenIdle = true;
        s.idleMinutes = 17;
        s.scheduleEnabled = true;
        s.schedule = onlyHour(2, 5);
        s.dailyQuotaMB = 700;
        const auto rules = PausePolicy::Rules::of(s);
        QCOMPARE(rules.pauseOnBattery, false);
        QCOMPARE(rules.onlyWhenIdle, true);
        QCOMPARE(rules.idleMinutes, 17);
        QCOMPARE(rules.scheduleEnabled, true);
        QCOMPARE(rules.schedule, s.schedule);
        QCOMPARE(rules.dailyQuotaMB, 700);
        // The defaults of both agree.
        const auto defaults = PausePolicy::Rules::of(VolunteerSettings{});
        const PausePolicy::Rules fresh;
        QCOMPARE(defaults.pauseOnBattery, fresh.pauseOnBattery);
        QCOMPARE(defaults.schedule, fresh.schedule);
        QCOMPARE(defaults.idleMinutes, fresh.idleMinutes);
    }

    // Local hours in a fixed offset: the allowed hour begins and ends on the minute.
    void scheduleAtHourEdges() {
        // Monday 09:00 and 16:00 in Dhaka (UTC+6) allowed: 03:00Z and 10:00Z.
        PausePolicy::Rules rules;
        rules.pauseOnBattery = false;
        rules.scheduleEnabled = true;
        rules.schedule.reset().set(0 * 24 + 9).set(0 * 24 + 16);
        const auto at = [&](qint64 utcMs) {
            auto in = quiet(utcMs);
            in.local = PausePolicy::LocalHour::at(utcMs, kDhaka);
            in.rules = rules;
            return decide(in);
        };
        const qint64 nine = kMonday + 3 * kHourMs;
        QCOMPARE(at(nine - 1), PauseCause::OutsideSchedule);
        QCOMPARE(at(nine), PauseCause::None);
        QCOMPARE(at(nine + kHourMs - 1), PauseCause::None);
        QCOMPARE(at(nine + kHourMs), PauseCause::OutsideSchedule);
        const qint64 sixteen = kMonday + 10 * kHourMs;
        QCOMPARE(at(sixteen - 1), PauseCause::OutsideSchedule);
        QCOMPARE(at(sixteen), PauseCause::None);
        QCOMPARE(at(sixteen + kHourMs), PauseCause::OutsideSchedule);

        // The week wraps: Sunday 23:59:59.999 local is day 6 hour 23, a millisecond later Monday 00:00.
        const qint64 mondayMidnightDhaka = kMonday + 7 * 24 * kHourMs - 6 * kHourMs;
        const auto before = PausePolicy::LocalHour::at(mondayMidnightDhaka - 1, kDhaka);
        QCOMPARE(before.day, 6);
        QCOMPARE(before.hour, 23);
        const auto after = PausePolicy::LocalHour::at(mondayMidnightDhaka, kDhaka);
        QCOMPARE(after.day, 0);
        QCOMPARE(after.hour, 0);
        // The same instant is another hour of another day in UTC.
        const auto utc = PausePolicy::LocalHour::at(mondayMidnightDhaka, QTimeZone::utc());
        QCOMPARE(utc.day, 6);
        QCOMPARE(utc.hour, 18);
    }

    void scheduleAcrossDaylightSaving() {
        const QTimeZone berlin(QByteArrayLiteral("Europe/Berlin"));
        QVERIFY2(berlin.isValid(), "the time zone database has no Europe/Berlin");
        const auto at = [&](qint64 utcMs, int allowedHour) {
            auto in = quiet(utcMs);
            in.local = PausePolicy::LocalHour::at(utcMs, berlin);
            in.rules.scheduleEnabled = true;
            in.rules.schedule = onlyHour(6, allowedHour); // a Sunday hour
            return decide(in);
        };

        // Spring: 01:59:59.999 CET is followed by 03:00 CEST; the wall clock never shows 02.
        const auto lastWinter = PausePolicy::LocalHour::at(kBerlinSpringForward - 1, berlin);
        QCOMPARE(lastWinter.day, 6);
        QCOMPARE(lastWinter.hour, 1);
        const auto firstSummer = PausePolicy::LocalHour::at(kBerlinSpringForward, berlin);
        QCOMPARE(firstSummer.day, 6);
        QCOMPARE(firstSummer.hour, 3);
        QCOMPARE(at(kBerlinSpringForward - 1, 3), PauseCause::OutsideSchedule);
        QCOMPARE(at(kBerlinSpringForward, 3), PauseCause::None);
        QCOMPARE(at(kBerlinSpringForward - 1, 1), PauseCause::None);
        QCOMPARE(at(kBerlinSpringForward, 1), PauseCause::OutsideSchedule);
        // An hour allowed at 02 is never reached that night.
        for (qint64 t = kBerlinSpringForward - 2 * kHourMs; t < kBerlinSpringForward + 2 * kHourMs;
             t += kMinuteMs)
            QCOMPARE(at(t, 2), PauseCause::OutsideSchedule);

        // Autumn: 02:00..02:59 comes twice (CEST, then CET): an allowed 02 lasts two real hours.
        const qint64 firstTwo = kBerlinFallBack - kHourMs; // 02:00 CEST
        QCOMPARE(at(firstTwo - 1, 2), PauseCause::OutsideSchedule);
        QCOMPARE(at(firstTwo, 2), PauseCause::None);
        QCOMPARE(at(kBerlinFallBack - 1, 2), PauseCause::None);
        QCOMPARE(at(kBerlinFallBack, 2), PauseCause::None); // 02:00 CET
        QCOMPARE(at(kBerlinFallBack + kHourMs - 1, 2), PauseCause::None);
        QCOMPARE(at(kBerlinFallBack + kHourMs, 2), PauseCause::OutsideSchedule); // 03:00 CET
        QCOMPARE(at(kBerlinFallBack + kHourMs, 3), PauseCause::None);
    }

    // A sensor the desktop cannot read never pauses, and the decision says which rule cannot apply.
    void unknownSensors() {
        auto in = quiet();
        in.rules.onlyWhenIdle = true;
        in.idleMs = std::nullopt;
        PausePolicy::Decision decision = PausePolicy()(in);
        QCOMPARE(decision.cause, PauseCause::None);
        QCOMPARE(decision.warning, kIdleUnknown);

        in.rules.onlyWhenIdle = false;
        in.rules.pauseOnBattery = true;
        in.onBattery = std::nullopt;
        decision = PausePolicy()(in);
        QCOMPARE(decision.cause, PauseCause::None);
        QCOMPARE(decision.warning, kBatteryUnknown);

        // Both unknown, both named; a rule that can apply still decides.
        in.rules.onlyWhenIdle = true;
        in.idleMs = std::nullopt;
        in.rules.scheduleEnabled = true;
        in.rules.schedule.reset();
        decision = PausePolicy()(in);
        QCOMPARE(decision.cause, PauseCause::OutsideSchedule);
        QVERIFY(decision.warning.contains(kIdleUnknown));
        QVERIFY(decision.warning.contains(kBatteryUnknown));

        // Unknown sensors of rules that are off are nobody's concern.
        auto off = quiet();
        off.onBattery = std::nullopt;
        off.idleMs = std::nullopt;
        decision = PausePolicy()(off);
        QCOMPARE(decision.cause, PauseCause::None);
        QVERIFY(decision.warning.isEmpty());
    }

    // An hour that is not on a clock (a caller's mistake) cannot be an allowed one.
    void impossibleLocalHour() {
        auto in = quiet();
        in.rules.scheduleEnabled = true;
        in.local = PausePolicy::LocalHour{7, 0};
        QCOMPARE(decide(in), PauseCause::OutsideSchedule);
        in.local = PausePolicy::LocalHour{0, 24};
        QCOMPARE(decide(in), PauseCause::OutsideSchedule);
        in.local = PausePolicy::LocalHour{-1, -1};
        QCOMPARE(decide(in), PauseCause::OutsideSchedule);
        in.rules.scheduleEnabled = false;
        QCOMPARE(decide(in), PauseCause::None);
    }
};

QTEST_GUILESS_MAIN(TestPausePolicy)
#include "tst_pause_policy.moc"
