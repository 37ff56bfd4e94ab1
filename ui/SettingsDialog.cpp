#include "ui/SettingsDialog.h"

#include "ui/AppController.h"
#include "ui/format/CountryNames.h"
#include "ui/widgets/PathField.h"
#include "ui/widgets/RunLinkField.h"
#include "ui/widgets/WeeklyScheduleGrid.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace sahaj::ui {

namespace {

QString systemCountryCode() {
    return QLocale::territoryToCode(QLocale::system().territory());
}

} // namespace

SettingsDialog::SettingsDialog(AppController& controller, QWidget* parent)
    : QDialog(parent), controller_(controller) {
    setWindowTitle(tr("Sahaj settings"));
    tabs_ = new QTabWidget(this);
    tabs_->addTab(buildRunPage(), tr("&Run"));
    tabs_->addTab(buildLimitsPage(), tr("&Limits"));
    tabs_->addTab(buildRulesPage(), tr("Pause r&ules"));
    tabs_->addTab(buildDesktopPage(), tr("&Desktop"));

    problemsLabel_ = new QLabel(this);
    problemsLabel_->setObjectName(QStringLiteral("problemsLabel"));
    problemsLabel_->setAccessibleName(tr("Problems with these settings"));
    problemsLabel_->setTextFormat(Qt::PlainText);
    problemsLabel_->setWordWrap(true);
    problemsLabel_->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    problemsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    problemsLabel_->hide();

    buttons_ =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
    connect(buttons_, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(buttons_->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_, 1);
    layout->addWidget(problemsLabel_);
    layout->addWidget(buttons_);

    load(controller_.settings());
}

QWidget* SettingsDialog::buildRunPage() {
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);

    auto* runField = new RunLinkField(page);
    runLink_ = runField->lineEdit();
    runField->addTo(form, tr("Join l&ink:"));

    user_ = new QLineEdit(page);
    user_->setObjectName(QStringLiteral("userEdit"));
    user_->setPlaceholderText(tr("only for runs that ask for one"));
    form->addRow(tr("User &name:"), user_);

    auto* tokenField = new PathField(PathField::Kind::File, tr("C&hoose…"), tr("Choose a token file"),
                                     tr("Token file"), {}, page);
    tokenFile_ = tokenField->lineEdit();
    tokenFile_->setObjectName(QStringLiteral("tokenFileEdit"));
    tokenFile_->setPlaceholderText(tr("optional"));
    tokenField->addTo(form, tr("&Token file:"));

    auto* dataField = new PathField(PathField::Kind::Folder, tr("Choo&se…"), tr("Choose the data folder"),
                                    tr("Data folder"), {}, page);
    dataDir_ = dataField->lineEdit();
    dataDir_->setObjectName(QStringLiteral("dataDirEdit"));
    dataDir_->setPlaceholderText(tr("the run's own location"));
    dataField->addTo(form, tr("Data fold&er:"));

    device_ = new QComboBox(page);
    device_->setObjectName(QStringLiteral("deviceCombo"));
    device_->setEditable(true);
    device_->addItems({QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda"),
                       QStringLiteral("cuda:0"), QStringLiteral("cuda:1")});
    device_->setToolTip(tr("auto (every GPU a compute core passes its self-test on, else the CPU), cpu, cuda "
                           "(the first GPU) or cuda:N"));
    form->addRow(tr("De&vice:"), device_);

    clientMode_ = new QCheckBox(tr("Connect out onl&y (behind NAT or a firewall)"), page);
    clientMode_->setObjectName(QStringLiteral("clientModeCheck"));
    form->addRow(QString(), clientMode_);

    // A run directory lists runs to choose from in Join… (BOINC's project list): whoever keeps one gives
    // its address and the key it is signed with.
    directoryUrl_ = new QLineEdit(page);
    directoryUrl_->setObjectName(QStringLiteral("directoryUrlEdit"));
    directoryUrl_->setPlaceholderText(tr("https://… (optional)"));
    form->addRow(tr("Run directory's &web address:"), directoryUrl_);
    directoryKey_ = new QLineEdit(page);
    directoryKey_->setObjectName(QStringLiteral("directoryKeyEdit"));
    directoryKey_->setPlaceholderText(tr("64 hexadecimal digits, from whoever keeps the directory"));
    form->addRow(tr("Directory &key:"), directoryKey_);
    return page;
}

QWidget* SettingsDialog::buildLimitsPage() {
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);

    limits_.addComputeRow(form);
    limits_.addMicroBatchRow(form);
    limits_.addTransferRows(form);
    limits_.dailyQuota()->setToolTip(
        tr("Upload and download together per day; Sahaj pauses when it is reached"));

    cacheGiB_ = new QSpinBox(page);
    cacheGiB_->setObjectName(QStringLiteral("cacheSpin"));
    cacheGiB_->setRange(engine::VolunteerSettings::kMinCacheGiB, engine::VolunteerSettings::kMaxCacheGiB);
    cacheGiB_->setSuffix(tr(" GiB"));
    // Unlike the limits above, the cache's cap is handed over when joining, not while running.
    cacheGiB_->setToolTip(tr("The most disk space the run's downloaded training data may take; the data "
                             "used longest ago is removed first. Applies from the next time Sahaj joins."));
    form->addRow(tr("Dis&k space for data:"), cacheGiB_);
    return page;
}

QWidget* SettingsDialog::buildRulesPage() {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);

    pauseOnBattery_ = new QCheckBox(tr("Pause while on &battery"), page);

    pauseOnBattery_->setObjectName(QStringLiteral("batteryCheck"));
    layout->addWidget(pauseOnBattery_);

    auto* idleRow = new QHBoxLayout;
    onlyWhenIdle_ = new QCheckBox(tr("Compute only when the computer is &idle for"), page);
    onlyWhenIdle_->setObjectName(QStringLiteral("idleCheck"));
    idleMinutes_ = new QSpinBox(page);
    idleMinutes_->setObjectName(QStringLiteral("idleMinutesSpin"));
    idleMinutes_->setRange(1, 120);
    idleMinutes_->setSuffix(tr(" min"));
    idleMinutes_->setAccessibleName(tr("Idle minutes"));
    idleRow->addWidget(onlyWhenIdle_);
    idleRow->addWidget(idleMinutes_);
    idleRow->addStretch(1);
    layout->addLayout(idleRow);

    gpuWhileActive_ = new QCheckBox(tr("Use the &GPU while the computer is in use"), page);
    gpuWhileActive_->setObjectName(QStringLiteral("gpuWhileActiveCheck"));
    gpuWhileActive_->setToolTip(
        tr("Off: a GPU computes only after the computer has been idle for the minutes "
           "above; the CPU is not affected"));
    layout->addWidget(gpuWhileActive_);
    // The idle minutes count for both rules: the idle rule, and the GPU's while it may not compute in use.
    const auto minutesMatter = [this] {
        idleMinutes_->setEnabled(onlyWhenIdle_->isChecked() || !gpuWhileActive_->isChecked());
    };
    connect(onlyWhenIdle_, &QCheckBox::toggled, this, minutesMatter);
    connect(gpuWhileActive_, &QCheckBox::toggled, this, minutesMatter);

    scheduleEnabled_ = new QCheckBox(tr("Compute only in these &hours of the week:"), page);

    scheduleEnabled_->setObjectName(QStringLiteral("scheduleCheck"));
    layout->addWidget(scheduleEnabled_);
    schedule_ = new WeeklyScheduleGrid(page);
    schedule_->setObjectName(QStringLiteral("scheduleGrid"));
    layout->addWidget(schedule_);
    auto* scheduleButtons = new QHBoxLayout;
    auto* allowAll = new QPushButton(tr("Allo&w all"), page);
    auto* allowNone = new QPushButton(tr("Allow &none"), page);
    auto* weekdayEvenings = new QPushButton(tr("&Evenings and weekends"), page);
    allowAll->setObjectName(QStringLiteral("allowAllButton"));
    allowNone->setObjectName(QStringLiteral("allowNoneButton"));
    connect(allowAll, &QPushButton::clicked, this,
            [this] { schedule_->setHours(WeeklyScheduleGrid::WeeklyHours().set()); });
    connect(allowNone, &QPushButton::clicked, this, [this] { schedule_->setHours({}); });
    connect(weekdayEvenings, &QPushButton::clicked, this, [this] {
        WeeklyScheduleGrid::WeeklyHours hours;
        for (int day = 0; day < 7; ++day)
            for (int hour = 0; hour < 24; ++hour)
                hours.set(static_cast<std::size_t>(day * 24 + hour), day >= 5 || hour >= 18 || hour < 8);
        schedule_->setHours(hours);
    });
    scheduleButtons->addWidget(allowAll);
    scheduleButtons->addWidget(allowNone);
    scheduleButtons->addWidget(weekdayEvenings);
    scheduleButtons->addStretch(1);
    layout->addLayout(scheduleButtons);
    scheduleParts_ = {schedule_, allowAll, allowNone, weekdayEvenings};
    for (QWidget* part : scheduleParts_)
        connect(scheduleEnabled_, &QCheckBox::toggled, part, &QWidget::setEnabled);
    layout->addStretch(1);
    return page;
}

QWidget* SettingsDialog::buildDesktopPage() {
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);

    startAtLogin_ = new QCheckBox(tr("&Start Sahaj when I log in"), page);

    startAtLogin_->setObjectName(QStringLiteral("startAtLoginCheck"));
    form->addRow(QString(), startAtLogin_);
    notifications_ = new QCheckBox(tr("Show &notifications (errors, disconnection, milestones)"), page);
    notifications_->setObjectName(QStringLiteral("notificationsCheck"));
    form->addRow(QString(), notifications_);

    language_ = new QComboBox(page);

    language_->setObjectName(QStringLiteral("languageCombo"));
    language_->addItem(tr("System language"), QString());
    // Each language in its own name, so that a user who cannot read the current one still finds theirs.
    language_->addItem(QStringLiteral("English"), QStringLiteral("en"));
    language_->addItem(QStringLiteral("বাংলা"), QStringLiteral("bn"));
    language_->setToolTip(tr("Takes effect the next time Sahaj starts"));
    form->addRow(tr("Lan&guage:"), language_);

    country_ = new QComboBox(page);

    country_->setObjectName(QStringLiteral("countryCombo"));
    fillCountries();
    country_->setToolTip(tr("Shown to the other volunteers on their peer map"));
    form->addRow(tr("Countr&y shown to others:"), country_);
    return page;
}

void SettingsDialog::fillCountries() {
    struct Country {
        QString name;
        QString code;
    };
    std::vector<Country> countries;
    static const QRegularExpression alpha2(QStringLiteral("^[A-Z]{2}$"));
    for (int value = 1; value <= static_cast<int>(QLocale::LastTerritory); ++value) {
        const auto territory = static_cast<QLocale::Territory>(value);
        const QString code = QLocale::territoryToCode(territory);
        // Regions such as "Latin America" (419) and aliases without a code are not countries to pick.
        if (!alpha2.match(code).hasMatch() || code == QLatin1String("ZZ"))
            continue;
        const bool known = std::any_of(countries.begin(), countries.end(),
                                       [&](const Country& country) { return country.code == code; });
        if (known)
            continue;
        const QString name = CountryNames::of(code);
        countries.push_back({name.isEmpty() ? QLocale::territoryToString(territory) : name, code});
    }
    std::sort(countries.begin(), countries.end(), [](const Country& a, const Country& b) {
        return QString::localeAwareCompare(a.name, b.name) < 0;
    });
    country_->addItem(tr("Don't share"), QString());
    for (const Country& country : countries)
        country_->addItem(tr("%1 (%2)").arg(country.name, country.code), country.code);
}

void SettingsDialog::load(const engine::VolunteerSettings& settings) {
    runLink_->setText(settings.runLink);
    user_->setText(settings.user);
    tokenFile_->setText(settings.tokenFile);
    dataDir_->setText(settings.dataDir);
    directoryUrl_->setText(settings.directoryUrl);
    directoryKey_->setText(settings.directoryKey);
    clientMode_->setChecked(settings.clientMode);
    device_->setCurrentText(settings.device);

    limits_.load(settings);
    cacheGiB_->setValue(settings.cacheGiB);

    pauseOnBattery_->setChecked(settings.pauseOnBattery);
    onlyWhenIdle_->setChecked(settings.onlyWhenIdle);
    idleMinutes_->setValue(settings.idleMinutes);
    gpuWhileActive_->setChecked(settings.gpuWhileActive);
    idleMinutes_->setEnabled(settings.onlyWhenIdle || !settings.gpuWhileActive);
    scheduleEnabled_->setChecked(settings.scheduleEnabled);
    schedule_->setHours(settings.schedule);
    // toggled() only fires on a change: set the schedule's parts to the loaded value explicitly.
    for (QWidget* part : scheduleParts_)
        part->setEnabled(settings.scheduleEnabled);

    startAtLogin_->setChecked(settings.startAtLogin);
    notifications_->setChecked(settings.notifications);
    int language = language_->findData(settings.language);
    if (language < 0) {
        language_->addItem(settings.language, settings.language);
        language = language_->count() - 1;
    }
    language_->setCurrentIndex(language);

    loadedShareCountry_ = settings.shareCountry;
    loadedCountry_ = settings.country;
    int country = 0;
    if (settings.shareCountry) {
        const QString code = settings.country.isEmpty() ? systemCountryCode() : settings.country;
        country = std::max(0, country_->findData(code));
    }
    country_->setCurrentIndex(country);
    loadedCountryIndex_ = country;
}

engine::VolunteerSettings SettingsDialog::editedSettings() const {
    engine::VolunteerSettings settings = controller_.settings();
    settings.chooseRun(runLink_->text().trimmed());
    settings.user = user_->text().trimmed();
    settings.tokenFile = tokenFile_->text().trimmed();
    settings.dataDir = dataDir_->text().trimmed();
    settings.directoryUrl = directoryUrl_->text().trimmed();
    settings.directoryKey = directoryKey_->text().trimmed().toLower();
    settings.clientMode = clientMode_->isChecked();
    settings.device = device_->currentText().trimmed();

    limits_.storeInto(settings);
    settings.cacheGiB = cacheGiB_->value();

    settings.pauseOnBattery = pauseOnBattery_->isChecked();
    settings.onlyWhenIdle = onlyWhenIdle_->isChecked();
    settings.idleMinutes = idleMinutes_->value();
    settings.gpuWhileActive = gpuWhileActive_->isChecked();
    settings.scheduleEnabled = scheduleEnabled_->isChecked();
    settings.schedule = schedule_->hours();

    settings.startAtLogin = startAtLogin_->isChecked();
    settings.notifications = notifications_->isChecked();
    settings.language = language_->currentData().toString();

    if (country_->currentIndex() == loadedCountryIndex_) {
        settings.shareCountry = loadedShareCountry_;
        settings.country = loadedCountry_;
    } else {
        settings.country = country_->currentData().toString();
        settings.shareCountry = !settings.country.isEmpty();
    }
    return settings;
}

bool SettingsDialog::apply() {
    const engine::VolunteerSettings edited = editedSettings();
    showProblems(controller_.applySettings(edited));
    if (!problems_.isEmpty())
        return false;
    // What was applied is the new starting point of the country choice.
    loadedCountryIndex_ = country_->currentIndex();
    loadedShareCountry_ = edited.shareCountry;
    loadedCountry_ = edited.country;
    return true;
}

void SettingsDialog::accept() {
    if (apply())
        QDialog::accept();
}

void SettingsDialog::showProblems(const QStringList& problems) {
    problems_ = problems;
    if (problems.isEmpty()) {
        problemsLabel_->clear();
        problemsLabel_->hide();
        return;
    }
    QStringList lines;
    for (const QString& problem : problems)
        lines << QStringLiteral("• ") + problem;
    problemsLabel_->setText(tr("These settings were not saved:") + QLatin1Char('\n') +
                            lines.join(QLatin1Char('\n')));
    problemsLabel_->show();
    // The sentences wrap: grow the dialog to their height rather than squeeze the schedule grid.
    if (layout()->hasHeightForWidth())
        if (const int needed = layout()->totalHeightForWidth(width()); needed > height())
            resize(width(), needed);
}

} // namespace sahaj::ui
