// The first-run wizard: Next stays disabled until the consent box is ticked and a run is given; the
// hardware page shows what the engine measured and measures again on Retry; nothing joins before the
// limits page's Join, which saves the settings (first run done, consent given, the secret never) and
// joins with the link and the secret typed, then leaves the wizard on the preparing page with no way
// back; a refusal keeps the wizard on the limits page with its reason. (What the preparing page shows
// is tst_download_progress's.)
#include "core/engine/VolunteerSettings.h"
#include "support/GuiFixture.h"
#include "support/SignedJoinLink.h"
#include "ui/AppController.h"
#include "ui/JoinWizard.h"
#include "ui/format/Figures.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <memory>

using namespace sahaj::testing;
using sahaj::engine::HardwareReport;
using sahaj::ui::Figures;
using sahaj::ui::JoinWizard;

namespace {

const QString kLink = signedJoinLink();
const QString kSecret = QStringLiteral("invite-7f3a-91c2");

// A first run: no settings file yet, the engine offline.
struct Machine : GuiFixture {
    std::unique_ptr<JoinWizard> wizard;

    Machine() {
        startController();
        engine->hardwareAnswer.devices = {QStringLiteral("cpu"), QStringLiteral("cuda:0")};
        engine->hardwareAnswer.training = {QStringLiteral("cuda core on cuda:0 (Test GPU)")};
        engine->hardwareAnswer.passedOver = {
            QStringLiteral("cuda on GPU 1 (Old GPU): compute capability 6.1 below 7.0")};
        engine->hardwareAnswer.memoryBytes = 16'000'000'000;
        engine->hardwareAnswer.samplesPerSecond = 12.5;
        wizard = std::make_unique<JoinWizard>(*engine, *controller);
        wizard->show();
    }

    QAbstractButton* next() const { return wizard->button(QWizard::NextButton); }
    QAbstractButton* join() const { return wizard->button(QWizard::CommitButton); }
    QAbstractButton* finish() const { return wizard->button(QWizard::FinishButton); }
    template <typename T>
    T* field(const char* name) const {
        T* widget = wizard->findChild<T*>(QLatin1String(name));
        if (!widget)
            qFatal("no field %s", name);
        return widget;
    }
    // Consent, link and secret given; on the hardware page.
    void throughJoinPage() {
        field<QCheckBox>("consentCheck")->setChecked(true);
        next()->click();
        field<QLineEdit>("runLinkEdit")->setText(kLink);
        field<QLineEdit>("userEdit")->setText(QStringLiteral("rahim"));
        field<QLineEdit>("secretEdit")->setText(kSecret);
        next()->click();
    }
};

} // namespace

class TestJoinWizard : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void consentIsRequired() {
        Machine machine;
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::ConsentPage));
        QVERIFY(!machine.next()->isEnabled());
        machine.next()->click();
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::ConsentPage));
        machine.field<QCheckBox>("consentCheck")->setChecked(true);
        QVERIFY(machine.next()->isEnabled());
        machine.field<QCheckBox>("consentCheck")->setChecked(false);
        QVERIFY(!machine.next()->isEnabled());
    }

    void aRunIsRequired() {
        Machine machine;
        machine.field<QCheckBox>("consentCheck")->setChecked(true);
        machine.next()->click();
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::JoinPage));
        QVERIFY(!machine.next()->isEnabled());
        machine.field<QLineEdit>("runLinkEdit")->setText(kLink);
        QVERIFY(machine.next()->isEnabled());
        QCOMPARE(machine.field<QLineEdit>("secretEdit")->echoMode(), QLineEdit::Password);
    }

    void hardwarePageShowsTheMeasurement() {
        Machine machine;
        QVERIFY(machine.engine->calls.isEmpty()); // nothing measured before the consent
        machine.throughJoinPage();
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::HardwarePage));
        QCOMPARE(machine.engine->calls, QStringList{QStringLiteral("hardware:auto:8")});
        const QString shown = machine.field<QLabel>("hardwareResult")->text();
        QVERIFY2(shown.contains(QStringLiteral("cuda:0")), qPrintable(shown));
        QVERIFY2(shown.contains(Figures::bytes(16e9)), qPrintable(shown));
        QVERIFY2(shown.contains(Figures::decimal(12.5, 1)), qPrintable(shown));
        // What the engine would train on, and what it passed over and why.
        QVERIFY2(shown.contains(QStringLiteral("cuda core on cuda:0 (Test GPU)")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("compute capability 6.1 below 7.0")), qPrintable(shown));
        auto* devices = machine.field<QComboBox>("deviceCombo");
        QCOMPARE(devices->count(), 3);
        QCOMPARE(devices->itemText(0), QStringLiteral("auto"));

        // Retry measures again, with the device and micro-batch now chosen.
        devices->setCurrentIndex(2);
        machine.field<QSpinBox>("microBatchSpin")->setValue(16);
        machine.engine->hardwareAnswer.samplesPerSecond = 96.0;
        machine.field<QAbstractButton>("retryButton")->click();
        QCOMPARE(machine.engine->calls.last(), QStringLiteral("hardware:cuda:0:16"));
        QVERIFY(machine.field<QLabel>("hardwareResult")->text().contains(Figures::decimal(96.0, 1)));

        // A failed measurement says why.
        machine.engine->hardwareAnswer.problem = QStringLiteral("CUDA is not available");
        machine.field<QAbstractButton>("retryButton")->click();
        QVERIFY(machine.field<QLabel>("hardwareResult")
                    ->text()
                    .contains(QStringLiteral("CUDA is not available")));
        // Going back and forth does not measure again by itself.
        const int calls = machine.engine->calls.size();
        machine.wizard->back();
        machine.wizard->next();
        QCOMPARE(machine.engine->calls.size(), calls);
    }

    // A measurement takes up to a minute or two: while it runs, a busy bar and the seconds so far say it is
    // under way (before, "Measuring on cpu…" alone for a minute); its result is also said per minute.
    void aMeasurementSaysItIsUnderWay() {
        Machine machine;
        machine.engine->holdHardwareAnswer = true;
        machine.throughJoinPage();
        auto* bar = machine.field<QProgressBar>("measuringBar");
        auto* result = machine.field<QLabel>("hardwareResult");
        QVERIFY(bar->isVisible());
        QVERIFY2(result->text().startsWith(QStringLiteral("Measuring on auto… 0 s")),
                 qPrintable(result->text()));
        QTRY_VERIFY2_WITH_TIMEOUT(result->text().contains(QStringLiteral("… 1 s")),
                                  qPrintable(result->text()), 30000);
        QVERIFY(!machine.field<QAbstractButton>("retryButton")->isEnabled());
        machine.engine->answerHardware();
        QVERIFY(!bar->isVisible());
        QVERIFY(machine.field<QAbstractButton>("retryButton")->isEnabled());
        QVERIFY2(result->text().contains(QStringLiteral("about 750 samples a minute")),
                 qPrintable(result->text()));
        QTest::qWait(1200); // the clock stopped: the result stays
        QVERIFY2(!result->text().contains(QStringLiteral("Measuring")), qPrintable(result->text()));
    }

    // What is not a run is named on the join page, which does not go on (before, the wizard took "hello"
    // and the join failed after it closed, naming the input a manifest nobody signed).
    void aBadRunIsNamedOnTheJoinPage() {
        Machine machine;
        machine.field<QCheckBox>("consentCheck")->setChecked(true);
        machine.next()->click();
        QTemporaryDir dir;
        QFile empty(dir.filePath(QStringLiteral("run.join")));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        for (const auto& [text, expected] : std::vector<std::pair<QString, QString>>{
                 {QStringLiteral("hello"), QStringLiteral("neither a join link")},
                 {empty.fileName(), QStringLiteral("is empty")},
                 {QStringLiteral("sahaj:join/@@"), QStringLiteral("base64url")}}) {
            machine.field<QLineEdit>("runLinkEdit")->setText(text);
            machine.next()->click();
            QCOMPARE(machine.wizard->currentId(), int(JoinWizard::JoinPage));
            auto* problem = machine.field<QLabel>("runProblemLabel");
            QVERIFY(problem->isVisible());
            QVERIFY2(problem->text().contains(expected), qPrintable(problem->text()));
        }
        machine.field<QLineEdit>("runLinkEdit")->setText(kLink);
        machine.next()->click();
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::HardwarePage));
        QVERIFY(!machine.joined());
    }

    void finishJoinsWithTheLinkAndSecret() {
        Machine machine;
        machine.throughJoinPage();
        machine.next()->click();
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::LimitsPage));
        machine.field<QSpinBox>("computeSpin")->setValue(60);
        machine.field<QSpinBox>("quotaSpin")->setValue(5000);
        QVERIFY(!machine.joined()); // nothing trains before Join
        QVERIFY(!QFile::exists(machine.settingsPath));

        QVERIFY(machine.join()->isVisible());
        QVERIFY(!machine.finish()->isVisible());
        machine.join()->click();
        QVERIFY(machine.engine->calls.contains(QStringLiteral("join:") + kLink));
        QCOMPARE(machine.engine->lastJoin.secret, kSecret);
        QCOMPARE(machine.engine->lastJoin.user, QStringLiteral("rahim"));
        QCOMPARE(machine.engine->lastJoin.limits.computePercent, 60.0);
        QCOMPARE(machine.engine->lastJoin.cacheCapBytes, std::int64_t(VolunteerSettings{}.cacheGiB) << 30);

        // Joining has started: the preparing page follows it, with no way back and nothing to cancel.
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::PreparingPage));
        QVERIFY(machine.wizard->isVisible());
        QVERIFY(!machine.wizard->button(QWizard::BackButton)->isVisible() ||
                !machine.wizard->button(QWizard::BackButton)->isEnabled());
        QVERIFY(!machine.wizard->button(QWizard::CancelButton)->isVisible());
        QVERIFY(machine.finish()->isVisible());
        machine.finish()->click();
        QCOMPARE(machine.wizard->result(), int(QDialog::Accepted));
        QVERIFY(!machine.wizard->isVisible());

        const VolunteerSettings saved = VolunteerSettings::load(machine.settingsPath);
        QVERIFY(saved.firstRunDone);
        QVERIFY(saved.consentGiven);
        QCOMPARE(saved.runLink, kLink);
        QCOMPARE(saved.dailyQuotaMB, 5000);
        QFile file(machine.settingsPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains(kSecret.toUtf8())); // the secret is never stored
    }

    void refusalKeepsTheWizardOpen() {
        Machine machine;
        machine.throughJoinPage();
        machine.next()->click();
        machine.field<QSpinBox>("quotaSpin")->setValue(10); // below one round's transfer: refused
        machine.join()->click();
        QVERIFY(machine.wizard->isVisible());
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::LimitsPage));
        auto* problem = machine.field<QLabel>("problemLabel");
        QVERIFY(problem->isVisibleTo(machine.wizard.get()));
        QVERIFY(!problem->text().isEmpty());
        QVERIFY(!machine.joined());
        QVERIFY(!QFile::exists(machine.settingsPath));

        machine.field<QSpinBox>("quotaSpin")->setValue(0);
        machine.join()->click();
        QVERIFY(machine.joined());
        QCOMPARE(machine.wizard->currentId(), int(JoinWizard::PreparingPage));
    }
};

QTEST_MAIN(TestJoinWizard)
#include "tst_join_wizard.moc"
