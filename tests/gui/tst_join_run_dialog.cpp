// Join…: the dialog to paste a run's link or pick a run from the run directory, which a real nginx on
// loopback serves, signed. A run picked from the directory is joined with the organiser key the directory
// gives pinned; a link typed by hand trusts its own; a directory signed by another key shows nothing; a
// link that cannot be joined keeps the dialog open with the reason; a bad link in the settings brings the
// dialog, not a failure.
#include "core/engine/VolunteerSettings.h"
#include "core/run/RunDirectory.h"
#include "core/security/PeerIdentity.h"
#include "support/GuiFixture.h"
#include "support/SignedJoinLink.h"
#include "tests/common/NginxServer.h"
#include "ui/ControlBar.h"
#include "ui/JoinRunDialog.h"
#include "ui/MainWindow.h"
#include "ui/format/Figures.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

using namespace sahaj::testing;
using sahaj::run::RunDirectory;
using sahaj::run::RunListing;
using sahaj::security::PeerIdentity;
using sahaj::test::NginxServer;
using sahaj::ui::JoinRunDialog;
using sahaj::ui::MainWindow;

namespace {

RunListing listing(const QString& title, char key, qint64 parameters) {
    RunListing run;
    run.title = title;
    run.description = QStringLiteral("%1: masked language modelling on Bengali text.").arg(title);
    run.organiser = QStringLiteral("Organiser of %1").arg(title);
    run.organiserKey = QString(64, QLatin1Char(key));
    run.join = QStringLiteral("https://runs.sahaj.invalid/%1.join").arg(title);
    run.parameters = parameters;
    run.downloadBytes = 1'500'000'000;
    return run;
}

RunListing withMarkup(RunListing run) {
    run.description += QStringLiteral(" <img src=\"file:///etc/passwd\">");
    return run;
}

struct Machine : GuiFixture {
    std::unique_ptr<MainWindow> window;

    explicit Machine(const VolunteerSettings& saved) : GuiFixture(EngineState::Offline) {
        saved.save(settingsPath);
        window = std::make_unique<MainWindow>(*engine, startController());
    }

    JoinRunDialog* openDialog() {
        window->joinLeaveAction()->trigger();
        return window->findChild<JoinRunDialog*>();
    }
};

void clickJoin(JoinRunDialog* dialog) {
    dialog->findChild<QPushButton*>(QStringLiteral("joinButton"))->click();
}

} // namespace

class TestJoinRunDialog : public QObject {
    Q_OBJECT

    QTemporaryDir served_;
    QTemporaryDir work_;
    std::unique_ptr<NginxServer> server_;
    const PeerIdentity keeper_ = PeerIdentity::generate();

    VolunteerSettings settings(const QString& directoryKey) const {
        VolunteerSettings s;
        s.firstRunDone = true;
        s.consentGiven = true;
        s.directoryUrl = server_->url("runs.json");
        s.directoryKey = directoryKey;
        return s;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(NginxServer::available(), qPrintable(NginxServer::missingReason()));
        QFile file(QDir(served_.path()).filePath("runs.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            RunDirectory::sign({listing("sahajBERT", 'a', 18'000'000), withMarkup(listing("tiny", 'b', 0))},
                               1, keeper_)
                .toBytes());
        file.close();
        server_ = std::make_unique<NginxServer>(served_.path(), work_.path());
        QString error;
        QVERIFY2(server_->start(&error), qPrintable(error));
    }

    void aRunPickedFromTheDirectoryIsJoinedWithItsOrganiserPinned() {
        Machine machine(settings(keeper_.id().toHex()));
        JoinRunDialog* dialog = machine.openDialog();
        QVERIFY(dialog && dialog->isVisible());
        QTRY_COMPARE(dialog->runList()->topLevelItemCount(), 2);
        const QTreeWidgetItem* first = dialog->runList()->topLevelItem(0);
        QCOMPARE(first->text(0), QStringLiteral("sahajBERT"));
        QCOMPARE(first->text(1), QStringLiteral("Organiser of sahajBERT"));
        QVERIFY2(first->text(2).contains("18") && first->text(2).contains("parameters"),
                 qPrintable(first->text(2)));
        QCOMPARE(first->text(3), sahaj::ui::Figures::bytes(1.5e9));
        QVERIFY2(first->toolTip(0).contains("masked language modelling"), qPrintable(first->toolTip(0)));
        // The keeper's markup is shown as text, not rendered.
        QVERIFY2(dialog->runList()->topLevelItem(1)->toolTip(0).contains("&lt;img"),
                 qPrintable(dialog->runList()->topLevelItem(1)->toolTip(0)));
        QVERIFY(dialog->directoryStatus()->text().contains("2"));

        dialog->runList()->setCurrentItem(dialog->runList()->topLevelItem(1));
        QCOMPARE(dialog->linkEdit()->text(), QStringLiteral("https://runs.sahaj.invalid/tiny.join"));
        QCOMPARE(dialog->organiserKey(), QString(64, QLatin1Char('b')));
        clickJoin(dialog);
        QCOMPARE(machine.engine->lastJoin.run, QStringLiteral("https://runs.sahaj.invalid/tiny.join"));
        QCOMPARE(machine.engine->lastJoin.organiser, QString(64, QLatin1Char('b')));
        const VolunteerSettings saved = VolunteerSettings::load(machine.settingsPath);
        QCOMPARE(saved.runLink, QStringLiteral("https://runs.sahaj.invalid/tiny.join"));
        QCOMPARE(saved.runOrganiser, QString(64, QLatin1Char('b')));
    }

    // A pick then a link typed over it: the typed link names its own organiser, nothing is pinned.
    void aLinkTypedByHandTrustsItsOwnKey() {
        Machine machine(settings(keeper_.id().toHex()));
        JoinRunDialog* dialog = machine.openDialog();
        QTRY_COMPARE(dialog->runList()->topLevelItemCount(), 2);
        dialog->runList()->setCurrentItem(dialog->runList()->topLevelItem(0));
        QVERIFY(!dialog->organiserKey().isEmpty());
        dialog->linkEdit()->setText(signedJoinLink());
        QVERIFY(dialog->organiserKey().isEmpty());
        clickJoin(dialog);
        QCOMPARE(machine.engine->lastJoin.run, signedJoinLink());
        QVERIFY(machine.engine->lastJoin.organiser.isEmpty());
    }

    void aDirectorySignedByAnotherKeyShowsNothing() {
        Machine machine(settings(PeerIdentity::generate().id().toHex()));
        JoinRunDialog* dialog = machine.openDialog();
        QTRY_VERIFY(dialog->directoryStatus()->text().contains("could not be loaded"));
        QVERIFY2(dialog->directoryStatus()->text().contains("not by the directory key"),
                 qPrintable(dialog->directoryStatus()->text()));
        QCOMPARE(dialog->runList()->topLevelItemCount(), 0);
        QVERIFY(dialog->refreshButton()->isEnabled());
        dialog->reject();
    }

    void withoutADirectoryItSaysWhereLinksComeFrom() {
        VolunteerSettings s = settings({});
        s.directoryUrl.clear();
        Machine machine(s);
        JoinRunDialog* dialog = machine.openDialog();
        QVERIFY(dialog->directoryStatus()->text().contains("web page"));
        QVERIFY(!dialog->runList()->isEnabled());
        QVERIFY(!dialog->refreshButton()->isEnabled());

        // What cannot be joined keeps the dialog open, with the reason.
        dialog->linkEdit()->setText(QStringLiteral("hello"));
        clickJoin(dialog);
        QVERIFY(dialog->isVisible());
        auto* problem = dialog->findChild<QLabel*>(QStringLiteral("runProblemLabel"));
        QVERIFY(problem && problem->isVisible() && !problem->text().isEmpty());
        QVERIFY(!machine.joined());
        dialog->linkEdit()->setText(signedJoinLink());
        clickJoin(dialog);
        QCOMPARE(machine.engine->lastJoin.run, signedJoinLink());
    }

    // The control bar's Join with a run that can no longer be joined: the dialog, with the notice why.
    void aLinkThatCannotBeJoinedBringsTheDialog() {
        VolunteerSettings s = settings({});
        s.directoryUrl.clear();
        s.runLink = QStringLiteral("/no/such/run.join");
        Machine machine(s);
        machine.window->controlBar()->joinLeaveButton()->click();
        QVERIFY(!machine.joined());
        auto* dialog = machine.window->findChild<JoinRunDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->linkEdit()->text(), QStringLiteral("/no/such/run.join"));
        QVERIFY(machine.window->noticeLabel()->text().contains("cannot be joined"));
        dialog->reject();
    }
};

QTEST_MAIN(TestJoinRunDialog)
#include "tst_join_run_dialog.moc"
