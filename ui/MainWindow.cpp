#include "ui/MainWindow.h"

#include "core/engine/EngineFacade.h"
#include "core/engine/JoinRequest.h"
#include "ui/AppController.h"
#include "ui/ControlBar.h"
#include "ui/JoinRunDialog.h"
#include "ui/JoinWizard.h"
#include "ui/SettingsDialog.h"
#include "ui/StateText.h"
#include "ui/SystemReport.h"
#include "ui/TrayIcon.h"
#include "ui/panels/BandwidthPanel.h"
#include "ui/panels/ContributionPanel.h"
#include "ui/panels/EventLogPanel.h"
#include "ui/panels/PeerMapPanel.h"
#include "ui/panels/TrainingPanel.h"

#include <QClipboard>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDateTime>
#include <QGuiApplication>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sahaj::ui {

namespace {

constexpr int kNoticeMs = 15'000;

} // namespace

MainWindow::MainWindow(engine::EngineFacade& engine, AppController& controller, QWidget* parent)
    : QMainWindow(parent), engine_(engine), controller_(controller) {
    setWindowTitle(tr("Sahaj"));
    setWindowIcon(TrayIcon::appIcon());

    controlBar_ = new ControlBar(engine_, controller_, this);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("panelTabs"));
    tabs_->setAccessibleName(tr("Panels"));
    bandwidth_ = new BandwidthPanel(engine_, tabs_);
    // Tab titles carry no mnemonics: Alt+letter belongs to the controls; Ctrl+1..5 switch tabs.
    tabs_->insertTab(ContributionTab, new ContributionPanel(engine_, tabs_), tr("Contribution"));
    tabs_->insertTab(BandwidthTab, bandwidth_, tr("Bandwidth"));
    tabs_->insertTab(PeersTab, new PeerMapPanel(engine_, tabs_), tr("Peers"));
    tabs_->insertTab(TrainingTab, new TrainingPanel(engine_, tabs_), tr("Training"));
    log_ = new EventLogPanel(engine_, tabs_);
    tabs_->insertTab(LogTab, log_, tr("Log"));

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(controlBar_);
    layout->addWidget(tabs_, 1);
    setCentralWidget(central);

    statusLine_ = new QLabel(this);
    statusLine_->setObjectName(QStringLiteral("statusLine"));
    statusLine_->setAccessibleName(tr("Status"));
    statusLine_->setTextFormat(Qt::PlainText);
    statusBar()->addWidget(statusLine_, 1);
    // Notices (a warning, a notification where there is no tray) sit beside the status line, so that the
    // state and its reason stay in sight. Both wrap and share the width: on one line each, a long notice
    // cut the status line short, and itself.
    notice_ = new QLabel(this);
    notice_->setObjectName(QStringLiteral("noticeLabel"));
    notice_->setAccessibleName(tr("Notice"));
    notice_->setTextFormat(Qt::PlainText);
    statusLine_->setWordWrap(true);
    notice_->setWordWrap(true);
    statusBar()->addPermanentWidget(notice_, 1);
    notice_->hide(); // shown with a notice only: empty, it would still take its share of the width
    noticeTimer_.setSingleShot(true);
    noticeTimer_.setInterval(kNoticeMs);
    connect(&noticeTimer_, &QTimer::timeout, this, [this] {
        notice_->clear();
        notice_->hide();
    });

    tray_ = new TrayIcon(engine_, controller_, this);
    connect(tray_, &TrayIcon::openRequested, this, &MainWindow::showFromTray);
    connect(tray_, &TrayIcon::quitRequested, this, &MainWindow::quit);
    // Without a tray the notices have nowhere else to go.
    connect(tray_, &TrayIcon::notified, this, [this](const QString& title, const QString& text) {
        if (!tray_->available())
            showNotice(tr("%1: %2").arg(title, text));
    });
    connect(controlBar_, &ControlBar::joinRequested, this, &MainWindow::join);
    connect(controlBar_, &ControlBar::leaving, tray_, &TrayIcon::expectLeave);

    buildMenus();
    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &MainWindow::render);
    connect(&controller_, &AppController::causeChanged, this, &MainWindow::render);
    connect(&controller_, &AppController::warning, this, [this](const QString& text) { showNotice(text); });
    connect(&controller_, &AppController::settingsChanged, this,
            [this] { bandwidth_->setDailyQuotaMB(controller_.settings().dailyQuotaMB); });
    // Queued: the rules' warning is decided after the settings are announced (see ControlBar).
    connect(&controller_, &AppController::settingsChanged, this, &MainWindow::render, Qt::QueuedConnection);
    bandwidth_->setDailyQuotaMB(controller_.settings().dailyQuotaMB);
    resize(1000, 720);
    render();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* sahaj = menuBar()->addMenu(tr("&Sahaj"));
    joinLeave_ = sahaj->addAction(tr("&Join…"), this, &MainWindow::joinOrLeave);
    joinLeave_->setShortcut(QKeySequence(tr("Ctrl+J")));
    sahaj->addSeparator();
    settings_ = sahaj->addAction(tr("&Settings…"), this, [this] { openSettings(); });
    settings_->setShortcut(QKeySequence(tr("Ctrl+,")));
    settings_->setMenuRole(QAction::PreferencesRole);
    sahaj->addSeparator();
    quit_ = sahaj->addAction(tr("&Quit"), this, &MainWindow::quit);
    quit_->setShortcut(QKeySequence::Quit);
    quit_->setMenuRole(QAction::QuitRole);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int tab = 0; tab < tabs_->count(); ++tab) {
        QAction* action =
            view->addAction(tabs_->tabText(tab), this, [this, tab] { tabs_->setCurrentIndex(tab); });
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + tab)));
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    demo_ = help->addAction(tr("Try the &demo"), this, &MainWindow::demoRequested);
    demo_->setStatusTip(tr("A small collaboration on this computer alone, in a window of its own"));
    // For a bug report: what the organiser or a developer asks first, without paths or secrets.
    copySystemReport_ = help->addAction(tr("&Copy system information"), this, [this] {
        QGuiApplication::clipboard()->setText(SystemReport::of(*engine_.snapshot()));
        statusBar()->showMessage(tr("System information copied: paste it into your report"), 10000);
    });
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Sahaj"), this, [this] {
        // What QMessageBox::about shows (the window's icon, one OK button), but window-modal and deleted on
        // close like the other dialogs, and opened without blocking.
        const QString text =
            tr("<p><b>Sahaj</b> %1</p><p>Volunteers train a Bengali language model together: "
               "each computer computes part of every batch and the peers average their "
               "gradients over the internet.</p>")
                .arg(QCoreApplication::applicationVersion().toHtmlEscaped()) +
            tr("<p>Copyright © 2026 The Sahaj developers</p>") +
            tr("<p>Sahaj is free software under the <a href=\"%1\">GNU General Public License, version 3 "
               "or later</a>.</p>")
                .arg(QStringLiteral("https://www.gnu.org/licenses/gpl-3.0.html"));
        auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About Sahaj"), text, QMessageBox::Ok, this);
        box->setTextFormat(Qt::RichText);
        box->setIconPixmap(windowIcon().pixmap(64, 64));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setWindowModality(Qt::WindowModal);
        box->open();
    });
    about->setMenuRole(QAction::AboutRole);
}

void MainWindow::render() {
    const auto snapshot = engine_.snapshot();
    const bool joinable = engine::canJoin(snapshot->state);
    joinLeave_->setText(joinable ? tr("&Join…") : tr("&Leave"));
    // The pause rules' warning ("battery state unknown …") has its own line in the control bar: appended
    // here it ran into the state and the rates, on every machine without UPower.
    statusLine_->setText(StateText::statusLine(*snapshot, controller_.demo()));
    setWindowTitle(tr("Sahaj — %1").arg(StateText::state(snapshot->state)));
}

void MainWindow::joinOrLeave() {
    if (engine::canJoin(engine_.snapshot()->state)) {
        if (firstRunDone())
            openJoinRunDialog();
        else
            openJoinWizard();
        return;
    }
    tray_->expectLeave();
    controller_.leave();
}

bool MainWindow::firstRunDone() const {
    const engine::VolunteerSettings& settings = controller_.settings();
    return settings.firstRunDone && settings.consentGiven;
}

void MainWindow::join() {
    if (!firstRunDone()) {
        openJoinWizard();
        return;
    }
    // A link or file that cannot be joined (mistyped, the file moved) brings the join dialog, with the
    // reason, rather than a failure that only Settings ▸ Run could mend.
    const engine::VolunteerSettings& settings = controller_.settings();
    if (const QString problem = engine::JoinRequest::runProblem(settings.runLink, settings.runOrganiser);
        !problem.isEmpty()) {
        if (!settings.runLink.isEmpty())
            showNotice(tr("The run link cannot be joined: %1").arg(problem));
        openJoinRunDialog();
        return;
    }
    joinChosenRun();
}

void MainWindow::joinChosenRun() {
    const engine::VolunteerSettings& settings = controller_.settings();
    QString secret;
    // Runs with a user name want its password or invite code, which is never stored; a token file
    // stands in for both.
    if (!settings.user.isEmpty() && settings.tokenFile.isEmpty()) {
        bool ok = false;
        secret =
            QInputDialog::getText(this, tr("Join"), tr("Password or invite code for %1:").arg(settings.user),
                                  QLineEdit::Password, QString(), &ok);
        if (!ok)
            return;
    }
    if (const QString problem = controller_.join(secret); !problem.isEmpty())
        QMessageBox::warning(this, tr("Sahaj"), tr("Joining did not start: %1").arg(problem));
}

JoinRunDialog* MainWindow::openJoinRunDialog() {
    auto* dialog = new JoinRunDialog(controller_.settings(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        engine::VolunteerSettings settings = controller_.settings();
        settings.chooseRun(dialog->link(), dialog->organiserKey());
        if (const QStringList problems = controller_.applySettings(settings); !problems.isEmpty()) {
            QMessageBox::warning(this, tr("Sahaj"),
                                 tr("Joining did not start: %1").arg(problems.join(QLatin1Char('\n'))));
            return;
        }
        joinChosenRun();
    });
    dialog->open();
    return dialog;
}

SettingsDialog* MainWindow::openSettings() {
    auto* dialog = new SettingsDialog(controller_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

JoinWizard* MainWindow::openJoinWizard() {
    auto* wizard = new JoinWizard(engine_, controller_, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &JoinWizard::demoRequested, this, &MainWindow::demoRequested);
    wizard->setWindowModality(Qt::WindowModal);
    wizard->open();
    return wizard;
}

void MainWindow::showFromTray() {
    showNormal();
    raise();
    activateWindow();
}

void MainWindow::quit() {
    if (quitting_)
        return;
    quitting_ = true;
    // Leaving the run takes a moment (up to the app's bound): say so where the user looks, and offer
    // nothing that would act on an engine that is going away.
    statusBar()->showMessage(tr("Stopping…"));
    controlBar_->showStopping();
    for (QAction* action : {joinLeave_, settings_, quit_, demo_})
        action->setEnabled(false);
    tray_->showStopping();
    Q_EMIT quitRequested();
}

void MainWindow::showDemoOutcome(const QStringList& lines) {
    for (const QString& line : lines) {
        engine::EngineEvent event;
        event.timeMs = QDateTime::currentMSecsSinceEpoch();
        event.level = engine::EngineEvent::Level::Milestone;
        event.text = line;
        log_->append(event);
    }
    showNotice(lines.join(QLatin1Char('\n')), true);
}

void MainWindow::showNotice(const QString& text, bool lasting) {
    notice_->setText(text);
    notice_->setToolTip(text);
    notice_->show();
    if (lasting)
        noticeTimer_.stop();
    else
        noticeTimer_.start();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!quitting_ && tray_->available()) {
        // The tray app keeps training with its window closed, as the tray's menu can bring it back.
        hide();
        event->ignore();
        if (!toldAboutTray_ && controller_.settings().notifications) {
            toldAboutTray_ = true;
            tray_->notify({tr("Sahaj keeps running"),
                           tr("Sahaj is still contributing. Open it or quit from its icon in the tray.")});
        }
        return;
    }
    if (!quitting_) {
        // Without a tray closing the window quits. The window stays in sight saying "Stopping…" until the
        // process ends (within the app's bound), so that nobody relaunches into a lock still held.
        event->ignore();
        quit();
        return;
    }
    event->accept(); // closed again while stopping: the user has seen it
}

} // namespace sahaj::ui
