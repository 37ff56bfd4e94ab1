#pragma once

#include "core/engine/VolunteerSettings.h"
#include "ui/widgets/LimitsFields.h"

#include <QDialog>
#include <QList>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;

namespace sahaj::ui {

class AppController;
class WeeklyScheduleGrid;

// Edits every preference of engine::VolunteerSettings: the run, the device, the limits and the disk space
// for downloaded data, the pause rules
// with the weekly schedule, and the desktop ones (start at login, notifications, language, the country shown
// on the others' peer maps). OK and Apply hand the whole set to the controller, which saves and applies it
// without a restart or refuses it; its sentences show in the dialog, and nothing closes or is saved while
// there is one.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(AppController& controller, QWidget* parent = nullptr);

    // The settings as the fields say, on top of the controller's (what the dialog does not edit, such as the
    // snooze or the consent, is kept).
    engine::VolunteerSettings editedSettings() const;
    // Shows `settings` in the fields.
    void load(const engine::VolunteerSettings& settings);
    // Applies the fields; true when the controller took them, else its problems show in the dialog.
    bool apply();
    QStringList problems() const { return problems_; }

    void accept() override;

private:
    QWidget* buildRunPage();
    QWidget* buildLimitsPage();
    QWidget* buildRulesPage();
    QWidget* buildDesktopPage();
    void fillCountries();
    void showProblems(const QStringList& problems);

    AppController& controller_;
    QStringList problems_;
    QTabWidget* tabs_ = nullptr;
    QLabel* problemsLabel_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;

    QLineEdit* runLink_ = nullptr;
    QLineEdit* user_ = nullptr;
    QLineEdit* tokenFile_ = nullptr;
    QLineEdit* dataDir_ = nullptr;
    QLineEdit* directoryUrl_ = nullptr;
    QLineEdit* directoryKey_ = nullptr;
    QCheckBox* clientMode_ = nullptr;
    QComboBox* device_ = nullptr;

    LimitsFields limits_;
    QSpinBox* cacheGiB_ = nullptr;

    QCheckBox* pauseOnBattery_ = nullptr;
    QCheckBox* onlyWhenIdle_ = nullptr;
    QSpinBox* idleMinutes_ = nullptr;
    QCheckBox* gpuWhileActive_ = nullptr;
    QCheckBox* scheduleEnabled_ = nullptr;
    WeeklyScheduleGrid* schedule_ = nullptr;
    QList<QWidget*> scheduleParts_; // enabled with the schedule

    QCheckBox* startAtLogin_ = nullptr;
    QCheckBox* notifications_ = nullptr;
    QComboBox* language_ = nullptr;
    QComboBox* country_ = nullptr;
    // The country choice as loaded: left alone, "share, from the system locale" stays that way instead of
    // being pinned to today's locale.
    int loadedCountryIndex_ = -1;
    bool loadedShareCountry_ = true;
    QString loadedCountry_;
};

} // namespace sahaj::ui
