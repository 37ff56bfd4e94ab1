#include "app/volunteer/ScreenshotTour.h"

#include "core/engine/EngineFacade.h"
#include "ui/JoinRunDialog.h"
#include "ui/JoinWizard.h"
#include "ui/MainWindow.h"
#include "ui/SettingsDialog.h"
#include "ui/TrayIcon.h"

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

ScreenshotTour::ScreenshotTour(engine::EngineFacade& engine, ui::MainWindow& window, QString folder)
    : engine_(engine), window_(window), folder_(std::move(folder)) {}

void ScreenshotTour::start() {
    QDir().mkpath(folder_);
    clock_.start();
    poll_.setInterval(1000);
    connect(&poll_, &QTimer::timeout, this, [this] {
        const bool alive = demoAlive();
        if (!alive && clock_.elapsed() < kPatienceMs)
            return;
        poll_.stop();
        const bool written = shoot();
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

} // namespace sahaj::volunteer
