#include "ui/ControlBar.h"

#include "core/engine/EngineFacade.h"
#include "ui/AppController.h"
#include "ui/PauseToggle.h"
#include "ui/StateText.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace sahaj::ui {

ControlBar::ControlBar(engine::EngineFacade& engine, AppController& controller, QWidget* parent)
    : QWidget(parent), engine_(engine), controller_(controller) {
    setAccessibleName(tr("Controls"));

    joinLeave_ = new QPushButton(this);
    joinLeave_->setObjectName(QStringLiteral("joinLeaveButton"));
    joinLeave_->setAccessibleName(tr("Join or leave the collaboration"));
    connect(joinLeave_, &QPushButton::clicked, this, &ControlBar::onJoinLeave);

    pauseResume_ = new QPushButton(this);
    pauseResume_->setObjectName(QStringLiteral("pauseResumeButton"));
    pauseResume_->setAccessibleName(tr("Pause or resume training"));
    connect(pauseResume_, &QPushButton::clicked, this,
            [this] { PauseToggle::trigger(*engine_.snapshot(), controller_); });

    finishStep_ = new QPushButton(tr("&Finish this step, then pause"), this);
    finishStep_->setObjectName(QStringLiteral("finishStepButton"));
    finishStep_->setAccessibleName(tr("Finish this step, then pause"));
    finishStep_->setToolTip(tr("Keep computing until the collaboration's next "
                               "step is taken, then pause"));
    connect(finishStep_, &QPushButton::clicked, this, [this] { controller_.finishStepThenPause(); });

    snooze_ = new QToolButton(this);
    snooze_->setObjectName(QStringLiteral("snoozeButton"));
    snooze_->setText(tr("S&nooze"));
    snooze_->setAccessibleName(tr("Snooze"));
    snooze_->setToolTip(tr("Pause for a few hours; the snooze survives a restart"));
    snooze_->setPopupMode(QToolButton::InstantPopup);
    snooze_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* snoozeMenu = new QMenu(snooze_);
    snoozeMenu->addAction(tr("For &1 hour"), this, [this] { controller_.snooze(1); });
    snoozeMenu->addAction(tr("For &3 hours"), this, [this] { controller_.snooze(3); });
    snoozeMenu->addAction(tr("For &6 hours"), this, [this] { controller_.snooze(6); });
    snoozeMenu->addSeparator();
    cancelSnooze_ = snoozeMenu->addAction(tr("&Cancel snooze"), this, [this] { controller_.cancelSnooze(); });
    snooze_->setMenu(snoozeMenu);

    state_ = new QLabel(this);
    state_->setObjectName(QStringLiteral("stateLabel"));
    state_->setAccessibleName(tr("State"));
    state_->setTextFormat(Qt::PlainText);
    state_->setWordWrap(true);
    state_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = state_->font();
    bold.setBold(true);
    state_->setFont(bold);

    warning_ = new QLabel(this);
    warning_->setObjectName(QStringLiteral("warningLabel"));
    warning_->setAccessibleName(tr("Warning"));
    warning_->setTextFormat(Qt::PlainText);
    warning_->setWordWrap(true);

    auto* labels = new QVBoxLayout;
    labels->setSpacing(2);
    labels->addWidget(state_);
    labels->addWidget(warning_);

    auto* row = new QHBoxLayout(this);
    row->addWidget(joinLeave_);
    row->addWidget(pauseResume_);
    row->addWidget(finishStep_);
    row->addWidget(snooze_);
    row->addSpacing(12);
    row->addLayout(labels, 1);

    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &ControlBar::render);
    // Queued: the controller decides the rules (and their warning) only after it announced the settings;
    // the warning has no signal of its own, and the engine's snapshot each second picks up later ones.
    connect(&controller_, &AppController::settingsChanged, this, &ControlBar::render, Qt::QueuedConnection);
    connect(&controller_, &AppController::causeChanged, this, &ControlBar::render);
    render();
}

void ControlBar::onJoinLeave() {
    if (engine::canJoin(engine_.snapshot()->state)) {
        Q_EMIT joinRequested();
        return;
    }
    Q_EMIT leaving();
    controller_.leave();
}

void ControlBar::showStopping() {
    stopping_ = true;
    render();
}

void ControlBar::render() {
    if (stopping_) {
        for (QWidget* control :
             std::initializer_list<QWidget*>{joinLeave_, pauseResume_, finishStep_, snooze_})
            control->setEnabled(false);
        state_->setText(tr("Stopping…"));
        warning_->hide();
        return;
    }
    const auto snapshot = engine_.snapshot();
    const bool joinable = engine::canJoin(snapshot->state);
    joinLeave_->setText(joinable ? tr("&Join…") : tr("&Leave"));
    joinLeave_->setToolTip(joinable ? tr("Join a collaboration and start training")
                                    : tr("Leave the collaboration politely and stop training"));

    pauseResume_->setText(PauseToggle::text(*snapshot));
    pauseResume_->setEnabled(PauseToggle::enabled(*snapshot));

    finishStep_->setEnabled(PauseToggle::canFinishStep(*snapshot));
    snooze_->setEnabled(PauseToggle::joined(snapshot->state));
    cancelSnooze_->setEnabled(controller_.settings().snoozeUntilMs > QDateTime::currentMSecsSinceEpoch() ||
                              snapshot->state == engine::EngineState::Snoozed);

    state_->setText(StateText::headline(*snapshot, controller_.demo()));
    const QString warning = controller_.activeWarning();
    warning_->setText(warning);
    warning_->setVisible(!warning.isEmpty());
}

} // namespace sahaj::ui
