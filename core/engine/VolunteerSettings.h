#pragma once

#include "core/engine/EngineLimits.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <array>
#include <bitset>
#include <optional>

namespace sahaj::engine {

// The volunteer's preferences (qBittorrent's SettingsStorage, typed): what the wizard and the settings
// dialog edit and the app and the pause rules read. Stored as an INI file (QSettings, QtCore only) so a
// user can read and back it up; load() never trusts the file: a value out of range or of the wrong type
// falls back to its default and is named in loadProblems().
struct VolunteerSettings {
    // Its sentences are translatable, although this is QtCore code: one context for lupdate and the app.
    Q_DECLARE_TR_FUNCTIONS(sahaj::engine::VolunteerSettings)

public:
    // Hours of the week in which computing is allowed: bit (day * 24 + hour), day 0 = Monday, in local time.
    using WeeklyHours = std::bitset<7 * 24>;

    // --- first run and joining
    bool firstRunDone = false; // the wizard finished; training starts only after Join
    bool consentGiven = false;
    QString runLink;   // join link or join file path
    QString user;      // for allowlist or invite runs (the secret is never stored here)
    QString tokenFile; // an organiser-issued token, optional
    // The organiser key the run's join file must be signed with (64 hex digits): set when the run was
    // chosen from a run directory, which vouches for it; empty: the key the run itself names.
    QString runOrganiser;
    // A run directory to choose runs from (run::RunDirectory): its URL and the key that signs it, both
    // from whoever keeps it; empty: none.
    QString directoryUrl;
    QString directoryKey;
    QString dataDir; // where the run's data shard is
    // The most the cache of downloaded shards may hold, in GiB (JoinRequest::cacheCapBytes, whose default
    // this is); read when joining, so a change applies from the next join.
    static constexpr int kMinCacheGiB = 1;
    static constexpr int kMaxCacheGiB = 10'000;
    int cacheGiB = 20;
    bool clientMode = false; // connect out only, even when the coordinator could dial this computer back
    QString device = QStringLiteral("auto"); // "auto": the GPUs whose cores pass, else the CPU
    bool shareCountry = true;
    QString country; // ISO 3166 alpha-2; empty with shareCountry: from the system locale
    // Joined and not left since: the app joins again when it starts, as BOINC, Folding@home and qBittorrent
    // resume (the access token kept at the last join stands in for a password, engine::SavedToken).
    bool rejoinOnStart = false;

    // --- limits (engine::EngineLimits: compute %, micro-batch, caps)
    engine::EngineLimits limits;
    qint64 dailyQuotaMB = 0; // transfer per local day, up and down together; 0: none

    // --- pause rules
    bool pauseOnBattery = true;
    bool onlyWhenIdle = false;
    int idleMinutes = 5; // the user counts as away after this many minutes without input, 1..120
    // Compute on a GPU while the user is at the computer (BOINC's run_gpu_if_user_active): off, as there,
    // since a busy GPU is what a person at the desktop notices first (a game, a video call).
    bool gpuWhileActive = false;
    bool scheduleEnabled = false;
    WeeklyHours schedule = WeeklyHours().set(); // every hour allowed
    qint64 snoozeUntilMs = 0;                   // survives a restart; 0: not snoozed
    bool userPaused = false;                    // Pause clicked: survives a restart too

    // --- desktop
    bool startAtLogin = false;
    bool notifications = true;
    QString language; // "", "en" or "bn"; "": follow the system

    // Sets the run to join. A run typed or chosen by hand (`organiser` empty) trusts the key it names, so a
    // pin left by a run chosen from a directory goes when the link changes.
    void chooseRun(const QString& link, const QString& organiser = {});

    // Empty when the settings are consistent, else one sentence per contradiction or bad value, for the
    // settings dialog to show (e.g. a schedule that allows no hour, an idle rule with the schedule empty,
    // client mode with an auxiliary device...). Saving is refused while there is a problem.
    QStringList problems() const;

    // Reads `path` (an INI file; a missing file gives the defaults). Values that do not parse or are out
    // of range keep their defaults and are listed in *loadProblems when it is given.
    static VolunteerSettings load(const QString& path, QStringList* loadProblems = nullptr);
    // Writes atomically (a temporary file renamed over the old one). Throws std::invalid_argument with
    // problems() when there are any, std::runtime_error when the file cannot be written.
    void save(const QString& path) const;

    bool operator==(const VolunteerSettings&) const = default;
};

} // namespace sahaj::engine
