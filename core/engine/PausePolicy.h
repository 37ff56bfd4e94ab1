#pragma once

#include "core/engine/EngineState.h"
#include "core/engine/VolunteerSettings.h"

#include <QCoreApplication>
#include <QString>
#include <QTimeZone>

#include <optional>

namespace sahaj::engine {

// Decides whether the volunteer's engine should run now or pause, and why (BOINC's "suspend" rules): a pure
// function of the clock, the settings and what the desktop tells of the machine, so that every rule can be
// tested at any hour without one. The app asks again every few seconds and when a sensor changes.
//
// When several causes hold, the one the user chose most directly wins:
//   User > Snooze > QuotaReached > OnBattery > OutsideSchedule > UserActive.
// UserActive comes from the idle rule, or from the GPU rule: a GPU computes only while the user is away
// (idle for idleMinutes) unless gpuWhileActive allows it.
// A sensor that cannot be read never pauses: a desktop without UPower or an idle monitor keeps computing,
// and the decision carries a warning naming the rule that cannot apply.
class PausePolicy {
    Q_DECLARE_TR_FUNCTIONS(sahaj::engine::PausePolicy)

public:
    static constexpr qint64 kBytesPerMB = 1000 * 1000;

    // The part of the settings the rules read.
    struct Rules {
        bool pauseOnBattery = true;
        bool onlyWhenIdle = false;
        int idleMinutes = 5;
        bool gpuWhileActive = false; // else a GPU that computes pauses while the user is active
        bool scheduleEnabled = false;
        engine::VolunteerSettings::WeeklyHours schedule = engine::VolunteerSettings::WeeklyHours().set();
        qint64 dailyQuotaMB = 0; // up and down together per local day; 0: none

        static Rules of(const engine::VolunteerSettings& settings);
    };

    // Where the local week stands at one instant.
    struct LocalHour {
        int day = 0;  // 0 = Monday .. 6 = Sunday
        int hour = 0; // 0..23, as the wall clock shows it (a daylight saving change skips or repeats one)

        // `nowMs` in `zone`; an invalid zone counts as UTC.
        static LocalHour at(qint64 nowMs, const QTimeZone& zone);
    };

    struct Inputs {
        qint64 nowMs = 0;
        LocalHour local;
        Rules rules;
        std::optional<bool> onBattery; // nullopt: unknown, the battery rule cannot apply
        std::optional<qint64> idleMs;  // since the user's last input; nullopt: unknown
        bool computesOnGpu = false;    // the engine's cores train on a GPU (EngineSnapshot::computesOnGpu)
        qint64 transferTodayBytes = 0; // up and down since the start of the local day
        qint64 snoozeUntilMs = 0;      // 0: not snoozed
        bool userPaused = false;
    };

    struct Decision {
        PauseCause cause = PauseCause::None; // None: run
        qint64 untilMs = 0;                  // when cause is Snooze: when it ends
        QString warning;                     // a rule that cannot apply, empty when all can

        bool operator==(const Decision&) const = default;
    };

    Decision operator()(const Inputs& in) const;
};

} // namespace sahaj::engine
