#include "ui/TrayIcon.h"

#include "core/engine/EngineFacade.h"
#include "ui/AppController.h"
#include "ui/PauseToggle.h"
#include "ui/StateText.h"
#include "ui/format/Figures.h"

#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QMenu>
#include <QStyle>
#include <QTimer>

namespace sahaj::ui {

namespace {

// The same notice again within this time is not shown twice (an Error state and its Error event).
constexpr qint64 kRepeatWindowMs = 60'000;

QStyle::StandardPixmap fallbackPixmap(engine::EngineState state) {
    switch (state) {
    case engine::EngineState::Training:
        return QStyle::SP_MediaPlay;
    case engine::EngineState::Paused:
        return QStyle::SP_MediaPause;
    case engine::EngineState::Snoozed:
        return QStyle::SP_MediaSeekForward;
    case engine::EngineState::Joining:
    case engine::EngineState::Waiting:
        return QStyle::SP_BrowserReload;
    case engine::EngineState::Error:
        return QStyle::SP_MessageBoxCritical;
    case engine::EngineState::Offline:
        return QStyle::SP_MediaStop;
    }
    return QStyle::SP_MediaStop;
}

bool connected(engine::EngineState state) {
    return state == engine::EngineState::Training || state == engine::EngineState::Waiting;
}

// Training on without the run's coordinator; a collaboration lost altogether is said on its own.
bool coordinatorOutOfReach(const engine::EngineSnapshot& snapshot) {
    return connected(snapshot.state) && snapshot.coordinatorLost && !snapshot.collaborationLost;
}

} // namespace

TrayIcon::TrayIcon(engine::EngineFacade& engine, AppController& controller, QObject* parent)
    : QObject(parent), engine_(engine), controller_(controller), menu_(std::make_unique<QMenu>()),
      tray_(std::make_unique<QSystemTrayIcon>()) {
    menu_->setTitle(tr("Sahaj"));
    buildMenu();
    tray_->setContextMenu(menu_.get());
    lastState_ = engine_.snapshot()->state;
    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &TrayIcon::onSnapshot);
    connect(&engine_, &engine::EngineFacade::eventLogged, this, &TrayIcon::onEvent);
    connect(&controller_, &AppController::settingsChanged, this, &TrayIcon::render);
    connect(&controller_, &AppController::causeChanged, this, &TrayIcon::render);
    connect(tray_.get(), &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
            Q_EMIT openRequested();
    });
    render();
    if (available()) {
        tray_->show();
    } else {
        // A panel whose tray starts after the app (a login session's order is not fixed) gets the icon
        // as soon as it is there, instead of never; until then the window stays the app.
        auto* watch = new QTimer(this);
        connect(watch, &QTimer::timeout, this, [this, watch] {
            if (!available())
                return;
            watch->stop();
            watch->deleteLater();
            tray_->show();
        });
        watch->start(kTrayWatchMs);
    }
}

TrayIcon::~TrayIcon() {
    // The tray icon refers to the menu: it goes first.
    tray_.reset();
}

void TrayIcon::buildMenu() {
    open_ = menu_->addAction(tr("&Open Sahaj"), this, &TrayIcon::openRequested);
    pauseResume_ = menu_->addAction(tr("&Pause"), this,
                                    [this] { PauseToggle::trigger(*engine_.snapshot(), controller_); });
    finishStep_ = menu_->addAction(tr("&Finish this step, then pause"), this,
                                   [this] { controller_.finishStepThenPause(); });
    QMenu* snooze = menu_->addMenu(tr("&Snooze"));
    snooze1_ = snooze->addAction(tr("For &1 hour"), this, [this] { controller_.snooze(1); });
    snooze3_ = snooze->addAction(tr("For &3 hours"), this, [this] { controller_.snooze(3); });
    snooze6_ = snooze->addAction(tr("For &6 hours"), this, [this] { controller_.snooze(6); });
    snooze->addSeparator();
    cancelSnooze_ = snooze->addAction(tr("&Cancel snooze"), this, [this] { controller_.cancelSnooze(); });
    menu_->addSeparator();
    quit_ = menu_->addAction(tr("&Quit"), this, &TrayIcon::quitRequested);
}

bool TrayIcon::available() const {
    return QSystemTrayIcon::isSystemTrayAvailable();
}

QString TrayIcon::toolTip() const {
    return tray_->toolTip();
}

QIcon TrayIcon::icon() const {
    return tray_->icon();
}

QString TrayIcon::iconPath() const {
    return iconPathFor(engine_.snapshot()->state);
}

QMenu* TrayIcon::menu() const {
    return menu_.get();
}

QAction* TrayIcon::snoozeAction(int hours) const {
    switch (hours) {
    case 1:
        return snooze1_;
    case 3:
        return snooze3_;
    case 6:
        return snooze6_;
    default:
        return nullptr;
    }
}

void TrayIcon::expectLeave() {
    leaveExpected_ = true;
}

void TrayIcon::showStopping() {
    stopping_ = true;
    render();
}

QString TrayIcon::iconPathFor(engine::EngineState state) {
    const engine::EngineState shown =
        state == engine::EngineState::Joining ? engine::EngineState::Waiting : state;
    return QStringLiteral(":/icons/tray-%1.svg").arg(engine::engineStateName(shown));
}

QIcon TrayIcon::iconFor(engine::EngineState state) {
    const QString path = iconPathFor(state);
    if (QFile::exists(path))
        return QIcon(path);
    return QApplication::style()->standardIcon(fallbackPixmap(state));
}

QIcon TrayIcon::appIcon() {
    const QString path = QStringLiteral(":/icons/org.sahaj.Sahaj.svg");
    if (QFile::exists(path))
        return QIcon(path);
    return QApplication::style()->standardIcon(QStyle::SP_ComputerIcon);
}

QString TrayIcon::toolTipFor(const engine::EngineSnapshot& snapshot) {
    QStringList lines{tr("Sahaj: %1").arg(StateText::state(snapshot.state))};
    if (const QString reason = StateText::reason(snapshot); !reason.isEmpty())
        lines << reason;
    if (snapshot.state == engine::EngineState::Training || snapshot.state == engine::EngineState::Waiting)
        lines << StateText::samplesPerSecond(snapshot.localSamplesPerSecond);
    if (snapshot.state != engine::EngineState::Offline)
        lines << StateText::rates(snapshot);
    return lines.join(QLatin1Char('\n'));
}

std::optional<TrayIcon::Notice> TrayIcon::disconnectionNotice(engine::EngineState before,
                                                              const engine::EngineSnapshot& now,
                                                              bool userAsked, bool notificationsOn) {
    if (!notificationsOn || userAsked || !connected(before))
        return std::nullopt;
    if (now.state == engine::EngineState::Error) {
        const QString why = StateText::reason(now);
        return Notice{tr("Sahaj stopped training"),
                      why.isEmpty() ? tr("Training stopped because of an error.") : why,
                      QSystemTrayIcon::Critical};
    }
    if (now.state == engine::EngineState::Offline)
        return Notice{tr("Sahaj is disconnected"), tr("This computer left the collaboration."),
                      QSystemTrayIcon::Warning};
    return std::nullopt;
}

std::optional<TrayIcon::Notice> TrayIcon::lostNotice(bool before, const engine::EngineSnapshot& now,
                                                     bool notificationsOn) {
    if (!notificationsOn || before || !now.collaborationLost)
        return std::nullopt;
    return Notice{tr("Sahaj is disconnected — retrying"),
                  tr("No other peer of the collaboration has been heard from for a while. Sahaj keeps "
                     "computing and tries to reach them again."),
                  QSystemTrayIcon::Warning};
}

std::optional<TrayIcon::Notice> TrayIcon::coordinatorNotice(bool before, const engine::EngineSnapshot& now,
                                                            bool notificationsOn) {
    if (!notificationsOn || before || !coordinatorOutOfReach(now))
        return std::nullopt;
    return Notice{tr("The run's coordinator does not answer"),
                  tr("Training goes on with the other volunteers; new volunteers cannot join until the "
                     "coordinator is back."),
                  QSystemTrayIcon::Warning};
}

std::optional<TrayIcon::Notice> TrayIcon::eventNotice(const engine::EngineEvent& event,
                                                      engine::EngineState state, bool notificationsOn) {
    if (!notificationsOn)
        return std::nullopt;
    switch (event.level) {
    case engine::EngineEvent::Level::Error: {
        // The log keeps the engine's account; the notice says what it means for the volunteer.
        const QString words = StateText::problem(event.problem, event.problemReason);
        const QString text = words.isEmpty() ? event.text : words;
        if (!PauseToggle::joined(state))
            return Notice{tr("Sahaj could not join the run"), text, QSystemTrayIcon::Critical};
        return Notice{tr("Sahaj stopped training"), text, QSystemTrayIcon::Critical};
    }
    case engine::EngineEvent::Level::Milestone:
        // Worded here, in the user's language: the event's text is the log's English.
        return Notice{
            tr("Sahaj milestone"),
            event.steps > 0
                ? tr("%1 global steps contributed").arg(Figures::count(static_cast<double>(event.steps)))
                : event.text,
            QSystemTrayIcon::Information};
    case engine::EngineEvent::Level::Info:
    case engine::EngineEvent::Level::Warning:
        return std::nullopt;
    }
    return std::nullopt;
}

void TrayIcon::onSnapshot() {
    const auto snapshot = engine_.snapshot();
    if (const auto notice = lostNotice(lastLost_, *snapshot, controller_.settings().notifications))
        notify(*notice);
    lastLost_ = snapshot->collaborationLost;
    if (const auto notice =
            coordinatorNotice(lastCoordinatorLost_, *snapshot, controller_.settings().notifications))
        notify(*notice);
    lastCoordinatorLost_ = coordinatorOutOfReach(*snapshot);
    if (snapshot->state != lastState_) {
        // The demo's run reaching its last step is the demo's end, which the window words.
        const bool expected = leaveExpected_ || StateText::demoFinished(*snapshot, controller_.demo());
        if (const auto notice =
                disconnectionNotice(lastState_, *snapshot, expected, controller_.settings().notifications))
            notify(*notice);
        // The expected leave is spent once the engine is out; joining again starts afresh.
        if (snapshot->state == engine::EngineState::Offline ||
            snapshot->state == engine::EngineState::Joining)
            leaveExpected_ = false;
        lastState_ = snapshot->state;
    }
    render();
}

void TrayIcon::onEvent(const engine::EngineEvent& event) {
    if (const auto notice = eventNotice(event, lastState_, controller_.settings().notifications))
        notify(*notice);
}

void TrayIcon::notify(const Notice& notice) {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (notice.text == lastNoticeText_ && now - lastNoticeMs_ < kRepeatWindowMs)
        return;
    lastNoticeText_ = notice.text;
    lastNoticeMs_ = now;
    if (available() && QSystemTrayIcon::supportsMessages())
        tray_->showMessage(notice.title, notice.text, notice.icon);
    Q_EMIT notified(notice.title, notice.text);
}

void TrayIcon::render() {
    const auto snapshot = engine_.snapshot();
    tray_->setIcon(iconFor(snapshot->state));
    tray_->setToolTip(toolTipFor(*snapshot));
    pauseResume_->setText(PauseToggle::text(*snapshot));
    pauseResume_->setEnabled(PauseToggle::enabled(*snapshot));
    finishStep_->setEnabled(PauseToggle::canFinishStep(*snapshot));
    const bool joined = PauseToggle::joined(snapshot->state);
    for (QAction* snooze : {snooze1_, snooze3_, snooze6_})
        snooze->setEnabled(joined);
    cancelSnooze_->setEnabled(controller_.settings().snoozeUntilMs > QDateTime::currentMSecsSinceEpoch() ||
                              snapshot->state == engine::EngineState::Snoozed);
    if (stopping_) {
        tray_->setToolTip(tr("Sahaj — stopping…"));
        for (QAction* action : menu_->actions())
            action->setEnabled(false);
    }
}

} // namespace sahaj::ui
