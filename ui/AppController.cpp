#include "ui/AppController.h"

#include "core/store/BucketCalendar.h"
#include "ui/Durations.h"

#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>
#include <cstdint>
#include <exception>

namespace sahaj::ui {

namespace {

constexpr int kEvaluateIntervalMs = 15 * 1000;
// A snooze end further away than this is waited for in steps (QTimer takes an int of milliseconds).
constexpr qint64 kLongestTimerMs = 6 * kHourMs;

using engine::EngineState;
using engine::PauseCause;

// The engine takes pause and resume only once it is in a collaboration.
bool isJoined(EngineState state) {
    return state != EngineState::Offline && state != EngineState::Joining && state != EngineState::Error;
}

bool isPaused(EngineState state) {
    return state == EngineState::Paused || state == EngineState::Snoozed;
}

// The country of the system locale, for a volunteer who shares it without choosing it; empty when the
// locale names none (the C locale).
QString systemCountry() {
    const QString code = QLocale::territoryToCode(QLocale::system().territory());
    static const QRegularExpression countryCode(QStringLiteral("^[A-Z]{2}$"));
    return countryCode.match(code).hasMatch() ? code : QString();
}

} // namespace

AppController::AppController(engine::EngineFacade& engine, QString settingsPath,
                             std::unique_ptr<SystemSensors> sensors, QObject* parent)
    : QObject(parent), engine_(engine), settingsPath_(std::move(settingsPath)), sensors_(std::move(sensors)) {
    QStringList loadProblems;
    settings_ = engine::VolunteerSettings::load(settingsPath_, &loadProblems);
    if (!loadProblems.isEmpty()) {
        for (const QString& problem : loadProblems)
            qWarning("settings %s: %s", qPrintable(settingsPath_), qPrintable(problem));
        // Nobody is connected yet while the constructor runs: tell once the event loop does.
        QTimer::singleShot(0, this, [this, loadProblems] {
            for (const QString& problem : loadProblems)
                Q_EMIT warning(tr("Settings: %1").arg(problem));
        });
    }

    const auto snapshot = engine_.snapshot();
    lastState_ = snapshot->state;
    lastEngineCause_ = snapshot->cause;
    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &AppController::onSnapshotChanged);
    if (sensors_)
        connect(sensors_.get(), &SystemSensors::changed, this, &AppController::evaluateRules);

    evaluateTimer_.setInterval(kEvaluateIntervalMs);
    connect(&evaluateTimer_, &QTimer::timeout, this, &AppController::evaluateRules);
    evaluateTimer_.start();
    // A coarse timer may fire 5 % early, minutes on a snooze of hours.
    snoozeEndTimer_.setSingleShot(true);
    snoozeEndTimer_.setTimerType(Qt::PreciseTimer);
    connect(&snoozeEndTimer_, &QTimer::timeout, this, &AppController::evaluateRules);

    evaluateRules();
}

AppController::~AppController() = default;

QStringList AppController::applySettings(const engine::VolunteerSettings& settings) {
    engine::VolunteerSettings next = settings;
    next.snoozeUntilMs = settings_.snoozeUntilMs;
    next.userPaused = settings_.userPaused;
    next.rejoinOnStart = settings_.rejoinOnStart;
    if (QStringList problems = next.problems(); !problems.isEmpty())
        return problems;
    try {
        next.save(settingsPath_);
    } catch (const std::exception& e) {
        return {tr("The settings could not be saved: %1").arg(QString::fromLocal8Bit(e.what()))};
    }
    const bool limitsChanged = next.limits != settings_.limits;
    settings_ = next;
    if (limitsChanged)
        if (const QString problem = engine_.setLimits(settings_.limits); !problem.isEmpty())
            report(tr("The engine did not take the new limits: %1").arg(problem));
    Q_EMIT settingsChanged();
    evaluateRules();
    return {};
}

QString AppController::join(const QString& secret) {
    const QString appData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (appData.isEmpty())
        return tr("This system names no folder for application data, where this peer's keys are kept");
    engine::JoinRequest request;
    request.run = settings_.runLink;
    request.organiser = settings_.runOrganiser;
    if (!settings_.user.isEmpty())
        request.user = settings_.user;
    request.secret = secret;
    request.tokenFile = settings_.tokenFile;
    request.identityDir = appData + QStringLiteral("/identity");
    request.dataDir = settings_.dataDir;
    request.cacheCapBytes = static_cast<std::int64_t>(settings_.cacheGiB) << 30;
    request.clientMode = settings_.clientMode;
    request.device = settings_.device;
    if (settings_.shareCountry)
        request.country = settings_.country.isEmpty() ? systemCountry() : settings_.country;
    request.limits = settings_.limits;
    QString problem = engine_.join(request);
    if (problem.isEmpty() && !settings_.rejoinOnStart) {
        settings_.rejoinOnStart = true;
        persist();
    }
    return problem;
}

void AppController::leave() {
    engine_.leave();
    if (settings_.rejoinOnStart) {
        settings_.rejoinOnStart = false;
        persist();
    }
}

QString AppController::rejoin() {
    if (!settings_.rejoinOnStart || settings_.userPaused || !settings_.firstRunDone ||
        !settings_.consentGiven || settings_.runLink.isEmpty())
        return {};
    if (const auto snapshot = engine_.snapshot(); snapshot && snapshot->state != engine::EngineState::Offline)
        return {};
    return join(QString());
}

void AppController::pauseByUser() {
    settings_.userPaused = true;
    persist();
    Q_EMIT settingsChanged();
    evaluateRules();
}

void AppController::resumeByUser() {
    settings_.userPaused = false;
    settings_.snoozeUntilMs = 0;
    persist();
    Q_EMIT settingsChanged();
    evaluateRules();
    // Paused when the app started, it did not join: resuming is the volunteer's word to go on.
    if (const QString problem = rejoin(); !problem.isEmpty())
        report(tr("Joining again did not start: %1").arg(problem));
}

void AppController::finishStepThenPause() {
    // Only a computing engine has a step to finish; otherwise the user's pause starts now.
    const EngineState state = engine_.snapshot()->state;
    if (state == EngineState::Training || state == EngineState::Waiting)
        engine_.finishStepThenPause();
    else
        pauseByUser();
}

void AppController::snooze(int hours) {
    if (hours != 1 && hours != 3 && hours != 6) {
        qWarning("snooze of %d hours refused: 1, 3 or 6 only", hours);
        return;
    }
    settings_.snoozeUntilMs = QDateTime::currentMSecsSinceEpoch() + hours * kHourMs;
    // A snooze while paused turns the pause into the snooze: it ends at its time (the user's pause,
    // which outranks it, would otherwise hide it, and the snooze did nothing anyone could see).
    settings_.userPaused = false;
    persist();
    Q_EMIT settingsChanged();
    evaluateRules();
}

void AppController::cancelSnooze() {
    if (settings_.snoozeUntilMs == 0)
        return;
    settings_.snoozeUntilMs = 0;
    persist();
    Q_EMIT settingsChanged();
    evaluateRules();
}

void AppController::evaluateRules() {
    // Telling the engine publishes a snapshot, which may come back here before this call returns: decide
    // once more afterwards rather than inside.
    if (evaluating_) {
        evaluateAgain_ = true;
        return;
    }
    evaluating_ = true;
    do {
        evaluateAgain_ = false;
        decideAndApply();
    } while (evaluateAgain_);
    evaluating_ = false;
}

void AppController::decideAndApply() {
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    if (settings_.snoozeUntilMs != 0 && settings_.snoozeUntilMs <= nowMs) {
        // An ended snooze is forgotten, so that the file no longer says snoozed.
        settings_.snoozeUntilMs = 0;
        persist();
        Q_EMIT settingsChanged();
    }

    const QTimeZone zone = QTimeZone::systemTimeZone();
    engine::PausePolicy::Inputs in;
    in.nowMs = nowMs;
    in.local = engine::PausePolicy::LocalHour::at(nowMs, zone);
    in.rules = engine::PausePolicy::Rules::of(settings_);
    if (sensors_) {
        in.onBattery = sensors_->onBattery();
        in.idleMs = sensors_->idleMs();
    }
    in.computesOnGpu = engine_.snapshot() && engine_.snapshot()->computesOnGpu;
    in.snoozeUntilMs = settings_.snoozeUntilMs;
    in.userPaused = settings_.userPaused;
    QString quotaWarning;
    if (in.rules.dailyQuotaMB > 0) {
        try {
            const store::TransferTotals today =
                engine_.transferSince(store::BucketCalendar::startOfDay(nowMs, zone));
            in.transferTodayBytes = today.upBytes + today.downBytes;
            // And the last minute's, which the engine has not written to the ledger yet.
            if (const auto snapshot = engine_.snapshot())
                in.transferTodayBytes +=
                    static_cast<qint64>(snapshot->unrecordedBytesSent + snapshot->unrecordedBytesReceived);
        } catch (const std::exception& e) {
            quotaWarning = tr("today's transfer cannot be read (%1): the quota rule cannot apply")
                               .arg(QString::fromLocal8Bit(e.what()));
        }
    }

    engine::PausePolicy::Decision decision = policy_(in);
    if (!quotaWarning.isEmpty())
        decision.warning =
            decision.warning.isEmpty() ? quotaWarning : decision.warning + QLatin1Char(' ') + quotaWarning;
    const bool changed = decision.cause != decision_.cause || decision.untilMs != decision_.untilMs;
    decision_ = decision;

    if (decision_.cause == PauseCause::Snooze)
        snoozeEndTimer_.start(
            static_cast<int>(std::clamp<qint64>(decision_.untilMs - nowMs, 0, kLongestTimerMs)));
    else
        snoozeEndTimer_.stop();
    if (changed)
        Q_EMIT causeChanged(decision_.cause);

    command(Command{decision_.cause, decision_.untilMs});
}

void AppController::command(const Command& want) {
    const auto snapshot = engine_.snapshot();
    if (!isJoined(snapshot->state)) {
        commanded_.reset(); // tell it afresh once it has joined
        return;
    }
    if (commanded_ == want)
        return;
    // Set first: the engine may publish (and call back) before pause() or resume() returns.
    commanded_ = want;
    const bool alreadyThere = isPaused(snapshot->state) && snapshot->cause == want.cause &&
                              (want.cause != PauseCause::Snooze || snapshot->snoozedUntilMs == want.untilMs);
    if (want.cause != PauseCause::None) {
        if (!alreadyThere)
            engine_.pause(want.cause, want.untilMs);
    } else if (isPaused(snapshot->state)) {
        engine_.resume();
    }
}

void AppController::onSnapshotChanged() {
    const auto snapshot = engine_.snapshot();
    // Snapshots come every second with new figures; only a new state or cause needs a decision.
    if (snapshot->state == lastState_ && snapshot->cause == lastEngineCause_)
        return;
    lastState_ = snapshot->state;
    lastEngineCause_ = snapshot->cause;
    // "Finish this step, then pause" ends in a pause the engine takes itself: it is the user's, and kept.
    if (snapshot->state == EngineState::Paused && snapshot->cause == PauseCause::User &&
        !settings_.userPaused) {
        settings_.userPaused = true;
        persist();
        Q_EMIT settingsChanged();
    }
    evaluateRules();
}

void AppController::persist() {
    try {
        settings_.save(settingsPath_);
    } catch (const std::exception& e) {
        report(tr("The settings could not be saved: %1").arg(QString::fromLocal8Bit(e.what())));
    }
}

void AppController::report(const QString& text) {
    qWarning("%s", qPrintable(text));
    Q_EMIT warning(text);
}

} // namespace sahaj::ui
