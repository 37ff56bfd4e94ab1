#pragma once

#include "core/engine/HardwareReport.h"
#include "ui/widgets/LimitsFields.h"

#include <QWizard>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sahaj::engine {
class EngineFacade;
}

namespace sahaj::ui {

class AppController;

// The first run: what Sahaj uses and sends (consent, required to go on), which run to join and with which
// credentials, a measurement of this machine, and the limits. Nothing trains before the last page's Join
// button: only then are the settings saved (first run done, consent given) and the controller told to
// join. A refusal (settings or join request) shows on the page and keeps the wizard open.
class JoinWizard : public QWizard {
    Q_OBJECT
public:
    enum Page { ConsentPage, JoinPage, HardwarePage, LimitsPage };

    JoinWizard(engine::EngineFacade& engine, AppController& controller, QWidget* parent = nullptr);

    // The last hardware measurement shown, if any.
    const engine::HardwareReport& hardwareReport() const { return report_; }

protected:
    // On the last page: saves the settings and joins; false (the wizard stays open) when either refuses.
    bool validateCurrentPage() override;

private:
    QWizardPage* buildConsentPage();
    QWizardPage* buildJoinPage();
    QWizardPage* buildHardwarePage();
    QWizardPage* buildLimitsPage();
    void measure();
    void showReport(const engine::HardwareReport& report);
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
    LimitsFields limits_;
    QCheckBox* pauseOnBattery_ = nullptr;
    QLabel* problem_ = nullptr;
};

} // namespace sahaj::ui
