#include "app/volunteer/ScreenshotTour.h"

#include "core/engine/EngineFacade.h"
#include "ui/JoinRunDialog.h"
#include "ui/JoinWizard.h"
#include "ui/MainWindow.h"
#include "ui/SettingsDialog.h"
#include "ui/TrayIcon.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDeadlineTimer>
#include <QLineEdit>
#include <QThread>

#include <QApplication>
#include <QDir>
#include <QLocale>
#include <QMenu>
#include <QTabWidget>

#include <iostream>

namespace sahaj::volunteer {

namespace {

void settle() {
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
}

} // namespace

ScreenshotTour::ScreenshotTour(engine::EngineFacade& engine, ui::MainWindow& window, QString folder,
                               std::function<void()> endCollaboration)
    : engine_(engine), window_(window), folder_(std::move(folder)),
      endCollaboration_(std::move(endCollaboration)) {}

void ScreenshotTour::start() {
    QDir().mkpath(folder_);
    clock_.start();
    poll_.setInterval(1000);
    connect(&poll_, &QTimer::timeout, this, [this] {
        const bool alive = demoAlive();
        if (!alive && clock_.elapsed() < kPatienceMs)
            return;
        poll_.stop();
        bool written = shoot();
        written = alive && shootLaterStates() && written;
        Q_EMIT finished(alive && written);
    });
    poll_.start();
}

bool ScreenshotTour::demoAlive() const {
    const auto snapshot = engine_.snapshot();
    bool latency = false;
    for (const engine::PeerSighting& peer : snapshot->peers)
        latency = latency || (!peer.self && peer.latencyMs > 0);
    qint64 epochs = 0;
    try {
        epochs = engine_.totals().epochsJoined;
    } catch (const std::exception&) {
    }
    return snapshot->state == engine::EngineState::Training && snapshot->localEpoch >= 6 &&
           snapshot->rounds.size() >= 3 && snapshot->peers.size() >= 3 && latency && epochs >= 3;
}

bool ScreenshotTour::save(QWidget& widget, const QString& name) {
    settle();
    const QString suffix = QLocale().language() == QLocale::Bengali ? QStringLiteral("-bn") : QString();
    const QString path = QDir(folder_).filePath(name + suffix + QStringLiteral(".png"));
    if (!widget.grab().save(path)) {
        std::cerr << "cannot write " << path.toStdString() << std::endl;
        return false;
    }
    std::cout << "wrote " << path.toStdString() << std::endl;
    return true;
}

bool ScreenshotTour::shoot() {
    bool ok = true;
    window_.resize(1100, 760);
    window_.show();
    const char* const tabs[] = {"contribution", "bandwidth", "peers", "training", "log"};
    for (int i = 0; i < window_.tabs()->count() && i < 5; ++i) {
        window_.tabs()->setCurrentIndex(i);
        ok = save(window_, QString::fromLatin1(tabs[i])) && ok;
    }
    window_.tabs()->setCurrentIndex(ui::MainWindow::ContributionTab);
    if (ui::SettingsDialog* dialog = window_.openSettings()) {
        dialog->resize(760, 620);
        ok = save(*dialog, QStringLiteral("settings")) && ok;
        dialog->close();
    }
    if (ui::JoinWizard* wizard = window_.openJoinWizard()) {
        wizard->resize(760, 560);
        ok = save(*wizard, QStringLiteral("wizard")) && ok;
        wizard->close();
    }
    // The demo sets no run directory: the dialog shows where links come from instead.
    if (ui::JoinRunDialog* dialog = window_.openJoinRunDialog()) {
        ok = save(*dialog, QStringLiteral("join-dialog")) && ok;
        dialog->close();
    }
    if (window_.tray() && window_.tray()->menu()) {
        QMenu* menu = window_.tray()->menu();
        menu->adjustSize();
        ok = save(*menu, QStringLiteral("tray-menu")) && ok;
    }
    return ok;
}

bool ScreenshotTour::waitUntil(const std::function<bool()>& reached, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    while (!reached()) {
        if (deadline.hasExpired())
            return false;
        QApplication::processEvents(QEventLoop::AllEvents, 100);
        QThread::msleep(50);
    }
    return true;
}

bool ScreenshotTour::shootLaterStates() {
    bool ok = true;
    // A link that is not a run: the join page names it and does not go on.
    if (ui::JoinWizard* wizard = window_.openJoinWizard()) {
        wizard->resize(760, 560);
        auto* consent = wizard->findChild<QCheckBox*>(QStringLiteral("consentCheck"));
        auto* link = wizard->findChild<QLineEdit*>(QStringLiteral("runLinkEdit"));
        if (consent && link) {
            consent->setChecked(true);
            wizard->button(QWizard::NextButton)->click();
            link->setText(QStringLiteral("hello"));
            wizard->button(QWizard::NextButton)->click();
            ok = save(*wizard, QStringLiteral("wizard-bad-link")) && ok;
        } else {
            std::cerr << "the join wizard has no consent or link field" << std::endl;
            ok = false;
        }
        wizard->close();
    }
    // Paused: the Training panel shows no countdown or peer count it can no longer know.
    QAction* pauseResume = window_.tray()->pauseResumeAction();
    pauseResume->trigger();
    const auto paused = [this] { return engine_.snapshot()->state == engine::EngineState::Paused; };
    ok = waitUntil(paused, 60000) && ok;
    window_.tabs()->setCurrentIndex(ui::MainWindow::TrainingTab);
    ok = save(window_, QStringLiteral("training-paused")) && ok;
    pauseResume->trigger();
    const auto running = [this] {
        const auto state = engine_.snapshot()->state;
        return state == engine::EngineState::Training || state == engine::EngineState::Waiting;
    };
    ok = waitUntil(running, 120000) && ok;
    // Every other peer gone: the app says it is disconnected and retrying (ContactWatch's 30 s and the
    // records' expiry).
    if (endCollaboration_) {
        endCollaboration_();
        const bool lost = waitUntil([this] { return engine_.snapshot()->collaborationLost; }, 180000);
        if (!lost)
            std::cerr << "the app did not notice that the collaboration had gone" << std::endl;
        window_.tabs()->setCurrentIndex(ui::MainWindow::PeersTab);
        ok = save(window_, QStringLiteral("disconnected")) && lost && ok;
    }
    // Quit: the window stays in sight, saying it is stopping, until the process ends.
    window_.tabs()->setCurrentIndex(ui::MainWindow::ContributionTab);
    window_.quitAction()->trigger();
    ok = save(window_, QStringLiteral("stopping")) && ok;
    return ok;
}

} // namespace sahaj::volunteer
