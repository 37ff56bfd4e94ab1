#include "app/volunteer/VolunteerApplication.h"

#include "app/node/DemoFillMask.h"
#include "app/volunteer/DemoFillMaskRun.h"
#include "app/volunteer/DemoOutcome.h"
#include "app/volunteer/ScreenshotTour.h"
#include "app/volunteer/StopSignalNotifier.h"
#include "core/engine/VolunteerEngine.h"
#include "core/engine/VolunteerSettings.h"
#include "ui/AppController.h"
#include "ui/MainWindow.h"
#include "ui/StateText.h"
#include "ui/TrayIcon.h"
#include "ui/desktop/AutostartEntry.h"
#include "ui/system/DBusSensors.h"

#include <QApplication>
#include <QDir>
#include <QLocale>
#include <QMessageBox>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>

namespace sahaj::volunteer {

namespace {

// Bengali text needs a font with its glyphs; Qt picks one by fallback where fontconfig offers it, and these
// families (the package depends on Lohit Bengali) make sure one is asked for first after the UI font.
void preferBengaliFonts() {
    QFont font = QApplication::font();
    font.setFamilies({font.family(), QStringLiteral("Lohit Bengali"), QStringLiteral("Noto Sans Bengali")});
    QApplication::setFont(font);
}

} // namespace

VolunteerApplication::VolunteerApplication(Options options) : options_(std::move(options)) {}

VolunteerApplication::~VolunteerApplication() {
    // Widgets first, then the engine (it leaves the run), then the demo's peers.
    tour_.reset();
    fillMask_.reset();
    window_.reset();
    controller_.reset();
    engine_.reset();
    demo_.reset();
}

void VolunteerApplication::installTranslator(const QString& settingsPath) {
    QString language = options_.language;
    if (language.isEmpty())
        language = engine::VolunteerSettings::load(settingsPath).language;
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    QLocale::setDefault(locale);
    if (locale.language() == QLocale::Bengali) {
        preferBengaliFonts();
        if (translator_.load(QStringLiteral(":/i18n/sahaj_bn.qm")))
            QCoreApplication::installTranslator(&translator_);
        else
            std::cerr << "sahaj-volunteer: the Bengali translation is missing; showing English\n";
    }
}

VolunteerApplication::Started VolunteerApplication::start() {
    const auto stopped = [](int exitCode, const QString& message) {
        return Started{false, exitCode, message};
    };
    QString settingsPath = options_.settingsPath;
    QString ledgerPath;
    if (options_.demo) {
        // The demo keeps its own settings and ledger: a newcomer's tour changes nothing of theirs.
        demoRoot_ =
            std::make_unique<QTemporaryDir>(QDir::temp().filePath(QStringLiteral("sahaj-demo-XXXXXX")));
        if (!demoRoot_->isValid())
            return stopped(1, QStringLiteral("cannot create a folder for the demo: ") +
                                  demoRoot_->errorString());
        demoRoot_->setAutoRemove(qEnvironmentVariableIsEmpty("SAHAJ_KEEP_DEMO"));
        settingsPath = demoRoot_->filePath(QStringLiteral("settings.ini"));
        ledgerPath = demoRoot_->filePath(QStringLiteral("ledger.sqlite"));
    } else {
        const QString config = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
        const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        if (config.isEmpty() || data.isEmpty())
            return stopped(1,
                           QStringLiteral("this system names no folders for settings and application data"));
        QDir().mkpath(config);
        QDir().mkpath(data);
        if (settingsPath.isEmpty())
            settingsPath = QDir(config).filePath(QStringLiteral("settings.ini"));
        ledgerPath = QDir(data).filePath(QStringLiteral("ledger.sqlite"));
        // One app per settings file (the demo has a folder of its own).
        instance_ = std::make_unique<SingleInstance>(settingsPath);
        QString problem;
        switch (
            instance_->claim(options_.quit ? SingleInstance::Request::Quit : SingleInstance::Request::Show,
                             kInstanceWaitMs, &problem)) {
        case SingleInstance::Outcome::First:
            break;
        case SingleInstance::Outcome::Told:
            return stopped(0, options_.quit
                                  ? QStringLiteral("Sahaj has stopped")
                                  : QStringLiteral("Sahaj is already running: its window was brought "
                                                   "forward"));
        case SingleInstance::Outcome::NoneRunning:
            return stopped(1, QStringLiteral("Sahaj is not running"));
        case SingleInstance::Outcome::Failed:
            return stopped(1, problem);
        }
    }
    installTranslator(settingsPath);

    try {
        engine_ = std::make_unique<engine::VolunteerEngine>(ledgerPath);
    } catch (const std::exception& e) {
        return stopped(1, QStringLiteral("cannot open the contribution ledger %1: %2")
                              .arg(ledgerPath, QString::fromUtf8(e.what())));
    }
    controller_ =
        std::make_unique<ui::AppController>(*engine_, settingsPath, std::make_unique<ui::DBusSensors>());
    controller_->setDemo(options_.demo);
    window_ = std::make_unique<ui::MainWindow>(*engine_, *controller_);
    connect(window_.get(), &ui::MainWindow::quitRequested, this, &VolunteerApplication::quitPolitely);
    stopSignals_ = std::make_unique<StopSignalNotifier>();
    connect(stopSignals_.get(), &StopSignalNotifier::stopRequested, window_.get(), [this](int signalNumber) {
        std::cout << "sahaj-volunteer: " << ::strsignal(signalNumber) << ": quitting" << std::endl;
        window_->quit();
    });
    connect(window_.get(), &ui::MainWindow::demoRequested, this, &VolunteerApplication::launchDemo);
    if (instance_) {
        connect(instance_.get(), &SingleInstance::showRequested, window_.get(), [this] {
            std::cout << "sahaj-volunteer: another launch asked for the window: showing it" << std::endl;
            window_->showFromTray();
        });
        connect(instance_.get(), &SingleInstance::quitRequested, window_.get(), [this] {
            std::cout << "sahaj-volunteer: asked to quit by another launch" << std::endl;
            window_->quit();
        });
    }
    startAtLogin_ = ui::AutostartEntry::isEnabled();
    connect(controller_.get(), &ui::AppController::settingsChanged, this,
            &VolunteerApplication::applyStartAtLogin);

    const bool tray = window_->tray() && window_->tray()->available();
    if (!(options_.minimized && tray))
        window_->show();
    if (options_.demo) {
        startDemo();
    } else if (!controller_->settings().firstRunDone) {
        window_->show();
        window_->openJoinWizard(); // training starts only when the user clicks Join there
    } else if (const QString problem = controller_->rejoin(); !problem.isEmpty()) {
        // Joined when it was last quit: it resumes (start at login must compute, not just show an icon).
        std::cerr << "sahaj-volunteer: joining again did not start: " << problem.toStdString() << std::endl;
        window_->show();
    }
    if (!options_.screenshotFolder.isEmpty()) {
        tour_ = std::make_unique<ScreenshotTour>(*engine_, *window_, options_.screenshotFolder,
                                                 [this] { demo_.reset(); });
        connect(tour_.get(), &ScreenshotTour::finished, this, [this](bool ok) {
            std::cout << (ok ? "screenshots written to " : "screenshots incomplete in ")
                      << options_.screenshotFolder.toStdString() << std::endl;
            QCoreApplication::exit(ok ? 0 : 1);
        });
        tour_->start();
    }
    return Started{true, 0, {}};
}

void VolunteerApplication::startDemo() {
    const node::DemoFiles files = node::DemoFiles::locate();
    if (const QString problem = files.problem(); !problem.isEmpty()) {
        std::cerr << "sahaj-volunteer: no demo: " << problem.toStdString() << std::endl;
        QTimer::singleShot(0, qApp, [] { QCoreApplication::exit(2); });
        return;
    }
    demo_ = std::make_unique<DemoSession>(files, demoRoot_->filePath(QStringLiteral("run")));
    connect(demo_.get(), &DemoSession::ready, this, [this](const QString& joinFile) {
        engine::VolunteerSettings settings = controller_->settings();
        settings.runLink = joinFile;
        settings.firstRunDone = true;
        settings.consentGiven = true;
        // The demo is for looking: no automatic pause, and this peer on the map (in Bangladesh, sahajBERT's
        // home, where the system names no country).
        settings.pauseOnBattery = false;
        settings.onlyWhenIdle = false;
        settings.scheduleEnabled = false;
        settings.shareCountry = true;
        if (settings.country.isEmpty() && QLocale::system().territory() == QLocale::AnyTerritory)
            settings.country = QStringLiteral("BD");
        if (const QStringList problems = controller_->applySettings(settings); !problems.isEmpty()) {
            std::cerr << "sahaj-volunteer: demo settings refused: " << problems.join("; ").toStdString()
                      << std::endl;
            return;
        }
        if (const QString problem = controller_->join(QString()); !problem.isEmpty())
            std::cerr << "sahaj-volunteer: cannot join the demo: " << problem.toStdString() << std::endl;
    });
    connect(engine_.get(), &engine::EngineFacade::snapshotChanged, this, [this] {
        if (demoEnded_ || !demo_ || !ui::StateText::demoFinished(*engine_->snapshot(), true))
            return;
        demoEnded_ = true;
        std::cout << "sahaj-volunteer: the demo reached its last step: stopping its peers" << std::endl;
        demo_->finish();
    });
    connect(demo_.get(), &DemoSession::peersStopped, this, &VolunteerApplication::showDemoOutcome);
    connect(demo_.get(), &DemoSession::failed, this, [](const QString& why) {
        std::cerr << "sahaj-volunteer: the demo collaboration did not start: " << why.toStdString()
                  << std::endl;
        QCoreApplication::exit(2);
    });
    demo_->start();
}

void VolunteerApplication::showDemoOutcome() {
    const QString sentence = node::DemoFillMask::sentence(demo_->files().corpus, nullptr);
    const auto show = [this, sentence](const DemoFillMaskRun::Prediction& before,
                                       const DemoFillMaskRun::Prediction& after) {
        const QStringList lines = DemoOutcome::lines(*engine_->snapshot(), sentence, before, after);
        for (const QString& line : lines)
            std::cout << "sahaj-volunteer: " << line.toStdString() << std::endl;
        window_->showDemoOutcome(lines);
    };
    if (sentence.isEmpty()) {
        show({}, {}); // no sentence to mask: the steps and the loss only
        return;
    }
    fillMask_ = std::make_unique<DemoFillMaskRun>(demo_->files().nodeProgram, sentence,
                                                  QStringList{demo_->modelBefore(), demo_->modelAfter()});
    connect(fillMask_.get(), &DemoFillMaskRun::finished, this,
            [show](const QList<DemoFillMaskRun::Prediction>& predictions) {
                show(predictions[0], predictions[1]);
            });
    fillMask_->start();
}

void VolunteerApplication::launchDemo() {
    // In this window's language, where the app has it ("C" or a German system shows English).
    const QStringList arguments{QStringLiteral("--demo"), QStringLiteral("--language"),
                                QLocale().language() == QLocale::Bengali ? QStringLiteral("bn")
                                                                         : QStringLiteral("en")};
    qint64 pid = 0;
    if (QProcess::startDetached(QCoreApplication::applicationFilePath(), arguments, QString(), &pid)) {
        std::cout << "sahaj-volunteer: started the demo (process " << pid << ")" << std::endl;
        return;
    }
    std::cerr << "sahaj-volunteer: the demo did not start" << std::endl;
    QMessageBox::warning(window_.get(), tr("Sahaj"),
                         tr("The demo did not start: %1 could not be run.")
                             .arg(QDir::toNativeSeparators(QCoreApplication::applicationFilePath())));
}

void VolunteerApplication::applyStartAtLogin() {
    const bool wanted = controller_->settings().startAtLogin;
    if (options_.demo || wanted == startAtLogin_)
        return;
    QString error;
    if (ui::AutostartEntry::apply(wanted, &error))
        startAtLogin_ = wanted;
    else
        std::cerr << "sahaj-volunteer: start at login: " << error.toStdString() << std::endl;
}

void VolunteerApplication::quitPolitely() {
    if (quitting_)
        return;
    quitting_ = true;
    if (instance_)
        instance_->stopListening(); // a launch from now on waits for this process to end
    // Whatever still runs (a round, a download, a core that does not answer), the process ends within the
    // bound: quitting must never leave it holding the identity and the lock for minutes. Nothing is lost
    // by ending early: the ledger commits each entry as it is written.
    std::thread([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(kQuitBoundMs));
        std::cerr << "sahaj-volunteer: still stopping after " << kQuitBoundMs / 1000 << " s: exiting now"
                  << std::endl;
        std::_Exit(0);
    }).detach();
    engine_->leave();
    // Leaving publishes the departure; give it a moment, but never hang on a stuck network.
    quitClock_.start();
    auto* poll = new QTimer(this);
    connect(poll, &QTimer::timeout, this, [this, poll] {
        if (!engine_->busy() || quitClock_.elapsed() > kPoliteQuitMs) {
            poll->stop();
            QCoreApplication::quit();
        }
    });
    poll->start(100);
}

} // namespace sahaj::volunteer
