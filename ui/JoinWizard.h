#pragma once

#include "core/engine/HardwareReport.h"
#include "ui/widgets/LimitsFields.h"

#include <QElapsedTimer>
#include <QWizard>

class QCheckBox;
class QProgressBar;
class QTimer;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

class AppController;
class DownloadProgress;

// The first run: what Sahaj uses and sends (consent, required to go on), which run to join and with which
// credentials, a measurement of this machine, and the limits. Nothing trains before the limits page's Join
// button: only then are the settings saved (first run done, consent given) and the controller told to
// join. A refusal (settings or join request) shows on the page and keeps the wizard there. Once joining
// has started there is no way back: the last page follows the engine as it prepares (its state, and the
// download of the run's files), until the volunteer closes the wizard; joining goes on without it.
class JoinWizard : public QWizard {
    Q_OBJECT
public:
    enum Page { ConsentPage, JoinPage, HardwarePage, LimitsPage, PreparingPage };

    JoinWizard(engine::EngineFacade& engine, AppController& controller, QWidget* parent = nullptr);

    // The last hardware measurement shown, if any.
    const engine::HardwareReport& hardwareReport() const { return report_; }

Q_SIGNALS:
    // "Try the demo": a newcomer without a run link wants to see Sahaj train first (the app starts the demo
    // in a window of its own, with settings of its own; this wizard stays).
    void demoRequested();

protected:
    // On the limits page: saves the settings and joins; false (the wizard stays there) when either refuses.
    bool validateCurrentPage() override;

private:
    QWizardPage* buildConsentPage();
    QWizardPage* buildJoinPage();
    QWizardPage* buildHardwarePage();
    QWizardPage* buildLimitsPage();
    QWizardPage* buildPreparingPage();
    void measure();
    // Draws the engine's current snapshot on the preparing page.
    void renderPreparation();
    void showReport(const engine::HardwareReport& report);
    // While a measurement runs: how long it has, on the result line, every second.
    void showMeasuringTime();
    bool saveAndJoin();

    engine::EngineFacade& engine_;
    AppController& controller_;
    engine::HardwareReport report_;
    bool measured_ = false;

    QCheckBox* consent_ = nullptr;
    QCheckBox* shareCountry_ = nullptr;
    QLineEdit* runLink_ = nullptr;
    QLineEdit* user_ = nullptr;
    QLineEdit* secret_ = nullptr;
    QLineEdit* tokenFile_ = nullptr;
    QComboBox* device_ = nullptr;
    QPushButton* retry_ = nullptr;
    QLabel* hardwareResult_ = nullptr;
    QProgressBar* measuring_ = nullptr; // busy while a measurement runs
    QTimer* measuringClock_ = nullptr;
    QElapsedTimer measuringSince_;
    QString measuringDevice_;
    LimitsFields limits_;
    QCheckBox* pauseOnBattery_ = nullptr;
    QLabel* problem_ = nullptr;
    QLabel* runProblem_ = nullptr; // on the join page: why the run given cannot be joined
    QLabel* joinState_ = nullptr;
    DownloadProgress* download_ = nullptr;
};

} // namespace sahaj::ui
