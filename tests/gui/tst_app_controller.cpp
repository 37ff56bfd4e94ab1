// The controller between the widgets and the engine: the automatic rules pause and resume the engine
// (battery, quota from the real ledger), the user's pause beats them, a snooze is persisted and applied
// again by a controller built on the same file (a restart), settings with a contradiction change nothing,
// new limits reach the engine at once.
#include "core/engine/VolunteerSettings.h"
#include "core/store/ContributionLedger.h"
#include "support/GuiFixture.h"
#include "tests/common/TestFiles.h"
#include "ui/AppController.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace sahaj::testing;

namespace {

// The fixture's machine, whose engine the test moves from state to state as the real one would move.
struct Machine : GuiFixture {
    Machine() : GuiFixture(EngineState::Training) {}

    void showState(EngineState state, PauseCause cause = PauseCause::None) {
        EngineSnapshot snapshot = busySnapshot(nowMs());
        snapshot.state = state;
        snapshot.cause = cause;
        engine->show(snapshot);
    }
};

// The untilMs of a "pause:snooze:<untilMs>" call, -1 when the call is not one.
qint64 snoozeEnd(const QString& call) {
    const QString prefix = QStringLiteral("pause:snooze:");
    if (!call.startsWith(prefix))
        return -1;
    bool ok = false;
    const qint64 until = call.mid(prefix.size()).toLongLong(&ok);
    return ok ? until : -1;
}

} // namespace

class TestAppController : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void batteryPausesAndResumes() {
        Machine m;
        AppController& controller = m.startController();
        QSignalSpy causes(&controller, &AppController::causeChanged);
        QCOMPARE(m.engine->calls, QStringList());
        QCOMPARE(controller.activeCause(), PauseCause::None);

        m.sensors->setBattery(true);
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("pause:on_battery")});
        QCOMPARE(controller.activeCause(), PauseCause::OnBattery);
        QCOMPARE(m.engine->snapshot()->state, EngineState::Paused);
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes.at(0).at(0).value<PauseCause>(), PauseCause::OnBattery);

        // Deciding again with nothing new tells the engine nothing new.
        controller.evaluateRules();
        m.sensors->setBattery(true);
        QCOMPARE(m.engine->calls.size(), 1);

        m.sensors->setBattery(false);
        QCOMPARE(m.engine->calls,
                 (QStringList{QStringLiteral("pause:on_battery"), QStringLiteral("resume")}));
        QCOMPARE(controller.activeCause(), PauseCause::None);
        QCOMPARE(causes.size(), 2);

        // An unknown battery never pauses, and says why the rule does not apply.
        m.sensors->setBattery(std::nullopt);
        QCOMPARE(m.engine->calls.size(), 2);
        QCOMPARE(controller.activeCause(), PauseCause::None);
        QVERIFY2(controller.activeWarning().contains(QStringLiteral("battery")),
                 qPrintable(controller.activeWarning()));
    }

    void snoozeIsPersistedAndSurvivesRestart() {
        Machine m;
        qint64 until = 0;
        {
            AppController& controller = m.startController();
            QSignalSpy changed(&controller, &AppController::settingsChanged);
            const qint64 before = nowMs();
            controller.snooze(3);
            const qint64 after = nowMs();
            QCOMPARE(m.engine->calls.size(), 1);
            until = snoozeEnd(m.engine->calls.at(0));
            QVERIFY2(until >= before + 3 * kHourMs && until <= after + 3 * kHourMs,
                     qPrintable(m.engine->calls.at(0)));
            QCOMPARE(controller.activeCause(), PauseCause::Snooze);
            QCOMPARE(controller.settings().snoozeUntilMs, until);
            QCOMPARE(VolunteerSettings::load(m.settingsPath).snoozeUntilMs, until);
            QCOMPARE(changed.size(), 1);

            // Only 1, 3 or 6 hours.
            QTest::ignoreMessage(QtWarningMsg, "snooze of 2 hours refused: 1, 3 or 6 only");
            controller.snooze(2);
            QCOMPARE(m.engine->calls.size(), 1);
            QCOMPARE(VolunteerSettings::load(m.settingsPath).snoozeUntilMs, until);
        }

        // A restart: a new engine, offline at first, and a new controller on the same file.
        m.controller.reset();
        m.engine = std::make_unique<RecordingEngine>(m.ledgerPath);
        AppController& controller = m.startController();
        QCOMPARE(controller.activeCause(), PauseCause::Snooze);
        QCOMPARE(m.engine->calls, QStringList()); // not joined: nothing to pause yet
        m.engine->join([] {
            sahaj::engine::JoinRequest request;
            request.run = QStringLiteral("sahaj://demo");
            request.identityDir = QStringLiteral("/tmp/identity");
            return request;
        }());
        m.engine->calls.clear();
        m.showState(EngineState::Joining);
        QCOMPARE(m.engine->calls, QStringList());
        m.showState(EngineState::Waiting);
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("pause:snooze:%1").arg(until)});

        controller.cancelSnooze();
        QCOMPARE(m.engine->calls.last(), QStringLiteral("resume"));
        QCOMPARE(VolunteerSettings::load(m.settingsPath).snoozeUntilMs, 0);
        QCOMPARE(controller.activeCause(), PauseCause::None);
    }

    // A snooze while paused by the user replaces the pause: it shows, and ends at its time.
    void snoozeWhilePausedReplacesThePause() {
        Machine m;
        AppController& controller = m.startController();
        controller.pauseByUser();
        QCOMPARE(controller.activeCause(), PauseCause::User);
        controller.snooze(1);
        QCOMPARE(controller.activeCause(), PauseCause::Snooze);
        QVERIFY(!controller.settings().userPaused);
        QVERIFY(!VolunteerSettings::load(m.settingsPath).userPaused);
        QVERIFY(controller.settings().snoozeUntilMs > nowMs());
    }

    // A snooze ends at its time: the engine resumes and the file forgets it.
    void snoozeRunsOut() {
        Machine m;
        VolunteerSettings s;
        s.snoozeUntilMs = nowMs() + 1500;
        s.save(m.settingsPath);
        AppController& controller = m.startController();
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("pause:snooze:%1").arg(s.snoozeUntilMs)});
        QTRY_COMPARE_WITH_TIMEOUT(m.engine->calls.size(), 2, 20000);
        QCOMPARE(m.engine->calls.last(), QStringLiteral("resume"));
        QVERIFY(nowMs() >= s.snoozeUntilMs);
        QCOMPARE(controller.activeCause(), PauseCause::None);
        QCOMPARE(VolunteerSettings::load(m.settingsPath).snoozeUntilMs, 0);
    }

    void quotaReached() {
        Machine m;
        AppController& controller = m.startController();
        VolunteerSettings s = controller.settings();
        s.dailyQuotaMB = 50;
        QCOMPARE(controller.applySettings(s), QStringList());
        QCOMPARE(controller.activeCause(), PauseCause::None);

        sahaj::store::ContributionLedger writer(m.ledgerPath);
        writer.recordTransfer({nowMs(), 20'000'000, 20'000'000});
        controller.evaluateRules();
        QCOMPARE(m.engine->calls, QStringList());
        writer.recordTransfer({nowMs(), 6'000'000, 4'000'000}); // 50 MB today, up and down together
        controller.evaluateRules();
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("pause:quota_reached")});
        QCOMPARE(controller.activeCause(), PauseCause::QuotaReached);

        // A larger quota lets it run again.
        s.dailyQuotaMB = 100;
        QCOMPARE(controller.applySettings(s), QStringList());
        QCOMPARE(m.engine->calls.last(), QStringLiteral("resume"));
    }

    void userPauseBeatsRules() {
        Machine m;
        AppController& controller = m.startController();
        m.sensors->setBattery(true);
        QCOMPARE(m.engine->calls.last(), QStringLiteral("pause:on_battery"));

        controller.pauseByUser();
        QCOMPARE(m.engine->calls.last(), QStringLiteral("pause:user"));
        QCOMPARE(controller.activeCause(), PauseCause::User);
        QVERIFY(VolunteerSettings::load(m.settingsPath).userPaused);

        // The rules do not override the user's pause (a snooze replaces it:
        // snoozeWhilePausedReplacesThePause).
        const int calls = m.engine->calls.size();
        m.sensors->setBattery(false);
        QCOMPARE(m.engine->calls.size(), calls);
        QCOMPARE(controller.activeCause(), PauseCause::User);

        // Resuming clears the pause; the rules still apply.
        m.sensors->battery = true;
        controller.resumeByUser();
        QCOMPARE(m.engine->calls.last(), QStringLiteral("pause:on_battery"));
        const VolunteerSettings saved = VolunteerSettings::load(m.settingsPath);
        QVERIFY(!saved.userPaused);
        QCOMPARE(saved.snoozeUntilMs, 0);
        m.sensors->setBattery(false);
        QCOMPARE(m.engine->calls.last(), QStringLiteral("resume"));
    }

    void finishStepThenPauseIsTheUsers() {
        Machine m;
        AppController& controller = m.startController();
        controller.finishStepThenPause();
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("finish-step")});
        QVERIFY(!controller.settings().userPaused);

        // The engine reaches its step and pauses itself: the pause is kept as the user's.
        m.showState(EngineState::Paused, PauseCause::User);
        QVERIFY(controller.settings().userPaused);
        QVERIFY(VolunteerSettings::load(m.settingsPath).userPaused);
        QCOMPARE(controller.activeCause(), PauseCause::User);
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("finish-step")}); // already paused

        controller.resumeByUser();
        QCOMPARE(m.engine->calls.last(), QStringLiteral("resume"));
    }

    void contradictionChangesNothing() {
        Machine m;
        AppController& controller = m.startController();
        VolunteerSettings s = controller.settings();
        s.runLink = QStringLiteral("sahaj://keep");
        QCOMPARE(controller.applySettings(s), QStringList());
        const QByteArray before = m.savedSettingsBytes();
        QVERIFY(!before.isEmpty());
        QSignalSpy changed(&controller, &AppController::settingsChanged);

        VolunteerSettings bad = s;
        bad.dailyQuotaMB = 10;
        bad.limits.computePercent = 50;
        const QStringList problems = controller.applySettings(bad);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.at(0).contains(QStringLiteral("below 50 MB")), qPrintable(problems.at(0)));
        QCOMPARE(m.savedSettingsBytes(), before);
        QCOMPARE(m.engine->calls, QStringList());
        QCOMPARE(controller.settings(), s);
        QCOMPARE(changed.size(), 0);
    }

    void newLimitsReachTheEngine() {
        Machine m;
        AppController& controller = m.startController();
        QSignalSpy changed(&controller, &AppController::settingsChanged);
        VolunteerSettings s = controller.settings();
        s.limits.computePercent = 50;
        s.limits.microBatch = 4;
        s.limits.maxUploadMbps = 20;
        QCOMPARE(controller.applySettings(s), QStringList());
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("limits:50:4:20:0")});
        QCOMPARE(m.engine->snapshot()->limits, s.limits);
        QCOMPARE(VolunteerSettings::load(m.settingsPath).limits, s.limits);
        QCOMPARE(changed.size(), 1);

        // Other settings alone leave the limits where they are.
        s.notifications = false;
        QCOMPARE(controller.applySettings(s), QStringList());
        QCOMPARE(m.engine->calls.size(), 1);
        QCOMPARE(changed.size(), 2);
    }

    // The pause state belongs to the controls: a settings dialog's copy does not undo a snooze.
    void applySettingsKeepsPauseState() {
        Machine m;
        AppController& controller = m.startController();
        const VolunteerSettings dialogCopy = controller.settings();
        controller.snooze(1);
        const qint64 until = controller.settings().snoozeUntilMs;
        QVERIFY(until > 0);
        QCOMPARE(controller.applySettings(dialogCopy), QStringList());
        QCOMPARE(controller.settings().snoozeUntilMs, until);
        QCOMPARE(controller.activeCause(), PauseCause::Snooze);
    }

    void idleRule() {
        Machine m;
        VolunteerSettings s;
        s.onlyWhenIdle = true;
        s.idleMinutes = 5;
        s.save(m.settingsPath);
        AppController& controller = m.startController();
        QCOMPARE(m.engine->calls, QStringList()); // away for hours
        m.sensors->setIdle(1000);
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("pause:user_active")});
        // A desktop that cannot tell: the rule does not apply, and says so.
        m.sensors->setIdle(std::nullopt);
        QCOMPARE(m.engine->calls.last(), QStringLiteral("resume"));
        QCOMPARE(controller.activeWarning(),
                 QStringLiteral("idle time unknown on this desktop: the idle rule cannot apply"));
    }

    void joinUsesTheSettings() {
        Machine m;
        m.engine = std::make_unique<RecordingEngine>(m.ledgerPath); // offline
        AppController& controller = m.startController();
        QVERIFY(!controller.join(QStringLiteral("secret")).isEmpty()); // no run chosen yet
        QCOMPARE(m.engine->calls, QStringList());

        VolunteerSettings s = controller.settings();
        s.runLink = QStringLiteral("sahaj://join/demo");
        s.user = QStringLiteral("rahim");
        s.device = QStringLiteral("cuda:0");
        s.country = QStringLiteral("BD");
        s.limits.microBatch = 2;
        QCOMPARE(controller.applySettings(s), QStringList());
        m.engine->calls.clear();
        QCOMPARE(controller.join(QStringLiteral("pass word")), QString());
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("join:sahaj://join/demo")});
        const auto& request = m.engine->lastJoin;
        QCOMPARE(request.user, QStringLiteral("rahim"));
        QCOMPARE(request.secret, QStringLiteral("pass word"));
        QCOMPARE(request.device, QStringLiteral("cuda:0"));
        QCOMPARE(request.country, QStringLiteral("BD"));
        QCOMPARE(request.limits.microBatch, 2);
        QCOMPARE(request.identityDir, QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                                          QStringLiteral("/identity"));
        // The secret is never written down.
        QVERIFY(!m.savedSettingsBytes().contains("pass word"));

        controller.leave();
        QCOMPARE(m.engine->calls.last(), QStringLiteral("leave"));
        s.shareCountry = false;
        QCOMPARE(controller.applySettings(s), QStringList());
        QCOMPARE(controller.join(QString()), QString());
        QVERIFY(m.engine->lastJoin.country.isEmpty());
    }

    // A volunteer who joined and quit finds the app training again when it starts (start at login
    // computes); one who paused joins when resuming; one who left stays out.
    void aRestartJoinsAgainUnlessLeftOrPaused() {
        Machine m;
        const auto restart = [&m]() -> AppController& {
            m.controller.reset();
            m.engine = std::make_unique<RecordingEngine>(m.ledgerPath); // a new engine is offline
            return m.startController();
        };
        AppController* controller = &restart();
        VolunteerSettings s = controller->settings();
        s.firstRunDone = true;
        s.consentGiven = true;
        s.runLink = QStringLiteral("sahaj://join/demo");
        QCOMPARE(controller->applySettings(s), QStringList());
        QCOMPARE(controller->rejoin(), QString());
        QCOMPARE(m.engine->calls, QStringList()); // never joined: nothing to resume
        QCOMPARE(controller->join(QStringLiteral("pass word")), QString());
        QVERIFY(VolunteerSettings::load(m.settingsPath).rejoinOnStart);

        controller = &restart();
        QCOMPARE(controller->rejoin(), QString());
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("join:sahaj://join/demo")});
        QVERIFY(m.engine->lastJoin.secret.isEmpty()); // the kept token stands in for it

        controller->pauseByUser();
        controller = &restart();
        QCOMPARE(controller->rejoin(), QString());
        QCOMPARE(m.engine->calls, QStringList());
        controller->resumeByUser();
        QCOMPARE(m.engine->calls, QStringList{QStringLiteral("join:sahaj://join/demo")});

        controller->leave();
        QVERIFY(!VolunteerSettings::load(m.settingsPath).rejoinOnStart);
        controller = &restart();
        QCOMPARE(controller->rejoin(), QString());
        QCOMPARE(m.engine->calls, QStringList());
    }

    void loadProblemsAreWarnings() {
        Machine m;
        QVERIFY(!sahaj::test::writeFile(m.dir, QStringLiteral("settings.ini"),
                                        "[limits]\nmicroBatch=lots\n[join]\ndevice=tpu\n")
                     .isEmpty());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("microBatch")));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("device")));
        AppController& controller = m.startController();
        QSignalSpy warnings(&controller, &AppController::warning);
        QCOMPARE(controller.settings(), VolunteerSettings{});
        QTRY_COMPARE(warnings.size(), 2);
        const QString both = warnings.at(0).at(0).toString() + warnings.at(1).at(0).toString();
        QVERIFY2(both.contains(QStringLiteral("limits/microBatch")), qPrintable(both));
        QVERIFY2(both.contains(QStringLiteral("join/device")), qPrintable(both));
    }
};

QTEST_GUILESS_MAIN(TestAppController)
#include "tst_app_controller.moc"
