#include "ui/JoinWizard.h"

#include "core/engine/EngineFacade.h"
#include "core/engine/JoinRequest.h"
#include "ui/AppController.h"
#include "ui/StateText.h"
#include "ui/TrayIcon.h"
#include "ui/format/CountryNames.h"
#include "ui/format/Figures.h"
#include "ui/widgets/DownloadProgress.h"
#include "ui/widgets/PathField.h"
#include "ui/widgets/ProblemLabel.h"
#include "ui/widgets/RunLinkField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace sahaj::ui {

namespace {

// A page that lets the wizard register its mandatory fields (QWizardPage keeps registerField protected).
class FieldPage : public QWizardPage {
public:
    using QWizardPage::registerField;
};

QLabel* paragraph(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    return label;
}

} // namespace

JoinWizard::JoinWizard(engine::EngineFacade& engine, AppController& controller, QWidget* parent)
    : QWizard(parent), engine_(engine), controller_(controller) {
    setWindowTitle(tr("Join Sahaj"));
    setWindowIcon(TrayIcon::appIcon());
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    // The limits page commits: its button joins, and the preparing page after it has no way back.
    setButtonText(QWizard::CommitButton, tr("&Join"));
    setButtonText(QWizard::FinishButton, tr("&Close"));
    setPage(ConsentPage, buildConsentPage());
    setPage(JoinPage, buildJoinPage());
    setPage(HardwarePage, buildHardwarePage());
    setPage(LimitsPage, buildLimitsPage());
    setPage(PreparingPage, buildPreparingPage());
    setStartId(ConsentPage);
    limits_.load(controller_.settings());

    connect(&engine_, &engine::EngineFacade::hardwareChecked, this, &JoinWizard::showReport);
    connect(&engine_, &engine::EngineFacade::snapshotChanged, this, &JoinWizard::renderPreparation);
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        // The measurement starts when its page is first reached, not before: the consent comes first.
        if (id == HardwarePage && !measured_)
            measure();
        // Once joining has started, Cancel would cancel nothing: the wizard only closes.
        setOption(QWizard::NoCancelButton, id == PreparingPage);
    });
    renderPreparation();
}

QWizardPage* JoinWizard::buildConsentPage() {
    auto* page = new FieldPage;
    page->setTitle(tr("Welcome to Sahaj"));
    page->setSubTitle(tr("Sahaj trains a language model together with other volunteers."));
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(paragraph(
        tr("<p><b>What Sahaj uses on this computer</b></p><ul>"
           "<li>its GPU or CPU, up to the share of the time you allow;</li>"
           "<li>memory for the model and its training data;</li>"
           "<li>network bandwidth, upload and download, up to the caps and the daily quota you set.</li></ul>"
           "<p><b>What it sends to the other volunteers</b></p><ul>"
           "<li>gradients: numbers computed from the run's public training text, never your files;</li>"
           "<li>its progress: samples computed, speed and the training step it is at;</li>"
           "<li>its public key, which identifies this computer in the collaboration;</li>"
           "<li>optionally the country you choose, shown on the other volunteers' peer maps.</li></ul>"
           "<p>You can pause, snooze or leave at any time, and change the limits in the settings.</p>"),
        page));

    const QString countryCode = QLocale::territoryToCode(QLocale::system().territory());
    const QString countryName = CountryNames::of(countryCode);
    const bool countryKnown = !countryName.isEmpty();
    shareCountry_ =
        new QCheckBox(countryKnown ? tr("&Show my country (%1) on the peer map").arg(countryName)
                                   : tr("&Show my country on the peer map (this system names none: "
                                        "choose it later in the settings)"),
                      page);
    shareCountry_->setObjectName(QStringLiteral("shareCountryCheck"));
    shareCountry_->setChecked(controller_.settings().shareCountry && countryKnown);
    // Without a country to show, the choice is left to the settings dialog, untouched here.
    shareCountry_->setEnabled(countryKnown);
    layout->addWidget(shareCountry_);

    consent_ = new QCheckBox(tr("I &understand what Sahaj uses and sends, and agree to contribute"), page);
    consent_->setObjectName(QStringLiteral("consentCheck"));
    layout->addWidget(consent_);
    layout->addStretch(1);
    // A mandatory field: Next stays disabled until the box is ticked.
    page->registerField(QStringLiteral("consent*"), consent_);
    return page;
}

QWizardPage* JoinWizard::buildJoinPage() {
    const engine::VolunteerSettings& settings = controller_.settings();
    auto* page = new FieldPage;
    page->setTitle(tr("Choose the run to join"));
    page->setSubTitle(tr("A run's organiser gives its join link or join file to volunteers (on the run's web "
                         "page, or by message): paste the link, or choose the file. Some runs also ask for a "
                         "user name and a password or invite code, or a token file."));
    auto* form = new QFormLayout(page);

    auto* runField = new RunLinkField(page);
    runLink_ = runField->lineEdit();
    runLink_->setText(settings.runLink);
    runField->addTo(form, tr("Join &link or file:"));
    page->registerField(QStringLiteral("run*"), runLink_);

    user_ = new QLineEdit(settings.user, page);
    user_->setObjectName(QStringLiteral("userEdit"));
    user_->setPlaceholderText(tr("only if the run asks for one"));
    form->addRow(tr("&User name:"), user_);

    secret_ = new QLineEdit(page);
    secret_->setObjectName(QStringLiteral("secretEdit"));
    secret_->setEchoMode(QLineEdit::Password);
    secret_->setPlaceholderText(tr("not stored: asked again when you join next time"));
    form->addRow(tr("&Password or invite code:"), secret_);

    auto* tokenField = new PathField(PathField::Kind::File, tr("C&hoose…"), tr("Choose a token file"),
                                     tr("Token file"), {}, page);
    tokenFile_ = tokenField->lineEdit();
    tokenFile_->setText(settings.tokenFile);
    tokenFile_->setObjectName(QStringLiteral("tokenFileEdit"));
    tokenFile_->setPlaceholderText(tr("optional"));
    tokenField->addTo(form, tr("&Token file:"));

    runProblem_ = makeProblemLabel(page, QStringLiteral("runProblemLabel"), tr("What is wrong with the run"));
    form->addRow(runProblem_);

    // No link yet: the demo shows what joining does, on this computer alone, without changing anything here.
    auto* demo = new QPushButton(tr("Try the &demo"), page);
    demo->setObjectName(QStringLiteral("tryDemoButton"));
    demo->setToolTip(tr("A small collaboration on this computer alone, in a window of its own: see Sahaj "
                        "train before you join a real run. Your settings stay as they are."));
    connect(demo, &QPushButton::clicked, this, &JoinWizard::demoRequested);
    auto* demoRow = new QHBoxLayout;
    demoRow->addWidget(new QLabel(tr("No run link yet?"), page));
    demoRow->addWidget(demo);
    demoRow->addStretch(1);
    form->addRow(demoRow);
    return page;
}

QWizardPage* JoinWizard::buildHardwarePage() {
    const engine::VolunteerSettings& settings = controller_.settings();
    auto* page = new QWizardPage;
    page->setTitle(tr("This computer"));
    page->setSubTitle(tr("A short measurement of how fast this computer trains the model."));
    auto* form = new QFormLayout(page);

    device_ = new QComboBox(page);
    device_->setObjectName(QStringLiteral("deviceCombo"));
    device_->addItem(settings.device);
    form->addRow(tr("&Device:"), device_);

    limits_.addMicroBatchRow(form);

    retry_ = new QPushButton(tr("&Measure again"), page);
    retry_->setObjectName(QStringLiteral("retryButton"));
    connect(retry_, &QPushButton::clicked, this, &JoinWizard::measure);
    form->addRow(QString(), retry_);

    hardwareResult_ = new QLabel(page);
    hardwareResult_->setObjectName(QStringLiteral("hardwareResult"));
    hardwareResult_->setAccessibleName(tr("Measurement"));
    hardwareResult_->setTextFormat(Qt::PlainText);
    hardwareResult_->setWordWrap(true);
    hardwareResult_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    form->addRow(tr("Result:"), hardwareResult_);

    // A measurement takes up to a minute or two (a core's start, then a few micro-batches): a busy bar and
    // the seconds so far say that it is under way.
    measuring_ = new QProgressBar(page);
    measuring_->setObjectName(QStringLiteral("measuringBar"));
    measuring_->setAccessibleName(tr("Measuring"));
    measuring_->setRange(0, 0);
    measuring_->setTextVisible(false);
    measuring_->hide();
    form->addRow(QString(), measuring_);
    measuringClock_ = new QTimer(page);
    measuringClock_->setInterval(1000);
    connect(measuringClock_, &QTimer::timeout, this, &JoinWizard::showMeasuringTime);
    return page;
}

QWizardPage* JoinWizard::buildLimitsPage() {
    const engine::VolunteerSettings& settings = controller_.settings();
    auto* page = new QWizardPage;
    page->setTitle(tr("Limits"));
    page->setSubTitle(tr("How much of this computer Sahaj may use. You can change these later in the "
                         "settings, while it runs."));
    auto* form = new QFormLayout(page);

    limits_.addComputeRow(form);
    limits_.addTransferRows(form);

    pauseOnBattery_ = new QCheckBox(tr("Pause while on &battery"), page);
    pauseOnBattery_->setObjectName(QStringLiteral("batteryCheck"));
    pauseOnBattery_->setChecked(settings.pauseOnBattery);
    form->addRow(QString(), pauseOnBattery_);

    problem_ = makeProblemLabel(page, QStringLiteral("problemLabel"), tr("Why joining did not start"));
    form->addRow(problem_);
    page->setCommitPage(true);
    return page;
}

QWizardPage* JoinWizard::buildPreparingPage() {
    auto* page = new QWizardPage;
    page->setTitle(tr("Joining the run"));
    page->setSubTitle(tr("Sahaj reads the run, downloads the data it needs and looks for the other "
                         "volunteers. You can close this window: joining goes on, and the Training panel "
                         "shows how far it is."));
    auto* layout = new QVBoxLayout(page);

    joinState_ = new QLabel(page);
    joinState_->setObjectName(QStringLiteral("joinStateLabel"));
    joinState_->setAccessibleName(tr("State"));
    joinState_->setTextFormat(Qt::PlainText);
    joinState_->setWordWrap(true);
    joinState_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    layout->addWidget(joinState_);

    download_ = new DownloadProgress(page);
    layout->addWidget(download_);
    layout->addStretch(1);
    return page;
}

void JoinWizard::measure() {
    measured_ = true;
    measuringDevice_ = device_->currentText().trimmed();
    measuringSince_.start();
    showMeasuringTime();
    measuring_->show();
    measuringClock_->start();
    retry_->setEnabled(false);
    // The facade answers with hardwareChecked, at once or after a few micro-batches.
    engine_.checkHardware(measuringDevice_, limits_.microBatch()->value());
}

void JoinWizard::showMeasuringTime() {
    hardwareResult_->setText(
        tr("Measuring on %1… %2 s (it can take a minute or two)")
            .arg(measuringDevice_, QLocale().toString(measuringSince_.elapsed() / 1000)));
}

void JoinWizard::showReport(const engine::HardwareReport& report) {
    report_ = report;
    measuringClock_->stop();
    measuring_->hide();
    retry_->setEnabled(true);
    if (!report.devices.isEmpty()) {
        const QString chosen = device_->currentText();
        device_->clear();
        device_->addItem(QStringLiteral("auto"));
        device_->addItems(report.devices);
        const int index = device_->findText(chosen);
        device_->setCurrentIndex(index >= 0 ? index : 0);
    }
    QStringList lines;
    lines << tr("Devices: %1")
                 .arg(report.devices.isEmpty() ? tr("none found")
                                               : report.devices.join(QStringLiteral(", ")));
    lines << tr("Memory: %1")
                 .arg(report.memoryBytes > 0 ? Figures::bytes(static_cast<double>(report.memoryBytes))
                                             : tr("unknown"));
    if (!report.training.isEmpty())
        lines << tr("Trains with: %1").arg(report.training.join(QStringLiteral("; ")));
    for (const QString& reason : report.passedOver)
        lines << tr("Passed over: %1").arg(reason);
    if (report.problem.isEmpty()) {
        lines << tr("Speed on %1 (micro-batch %2): %3 samples/s")
                     .arg(report.device, QLocale().toString(report.microBatch),
                          Figures::decimal(report.samplesPerSecond, 1));
        // Per minute reads easier than per second; the compute limit (next page) takes its share of it.
        lines << tr("That is about %1 samples a minute while it computes, all of them toward the run's "
                    "shared batch.")
                     .arg(QLocale().toString(qRound64(report.samplesPerSecond * 60.0)));
    } else
        lines << tr("The measurement failed: %1").arg(report.problem);
    hardwareResult_->setText(lines.join(QLatin1Char('\n')));
}

void JoinWizard::renderPreparation() {
    const auto snapshot = engine_.snapshot();
    if (!snapshot)
        return;
    joinState_->setText(StateText::headline(*snapshot));
    download_->setDownload(snapshot->download);
}

bool JoinWizard::validateCurrentPage() {
    if (currentId() == JoinPage) {
        // Checked here, in the volunteer's words, rather than failing after the wizard closed.
        const QString problem = engine::JoinRequest::runProblem(runLink_->text());
        runProblem_->setText(problem);
        runProblem_->setVisible(!problem.isEmpty());
        return problem.isEmpty() && QWizard::validateCurrentPage();
    }
    if (currentId() != LimitsPage)
        return QWizard::validateCurrentPage();
    return saveAndJoin();
}

bool JoinWizard::saveAndJoin() {
    engine::VolunteerSettings settings = controller_.settings();
    settings.firstRunDone = true;
    settings.consentGiven = consent_->isChecked();
    settings.chooseRun(runLink_->text().trimmed());
    settings.user = user_->text().trimmed();
    settings.tokenFile = tokenFile_->text().trimmed();
    settings.device = device_->currentText().trimmed();
    if (shareCountry_->isEnabled())
        settings.shareCountry = shareCountry_->isChecked();
    limits_.storeInto(settings);
    settings.pauseOnBattery = pauseOnBattery_->isChecked();

    QString problem;
    if (const QStringList problems = controller_.applySettings(settings); !problems.isEmpty())
        problem = problems.join(QLatin1Char('\n'));
    else
        problem = controller_.join(secret_->text());
    problem_->setText(problem.isEmpty() ? QString() : tr("Joining did not start: %1").arg(problem));
    problem_->setVisible(!problem.isEmpty());
    return problem.isEmpty();
}

} // namespace sahaj::ui
