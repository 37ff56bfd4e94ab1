// The end of the desktop app's demo (`sahaj-volunteer --demo`): its run reaching the last step reads as the
// demo's end, with how to join a real run, and is not notified as a disconnection; what the model learned is
// shown as `sahaj-node demo` prints it: a sentence of the corpus with a word masked, and what the untrained
// and the trained model put there (sahaj-node fill-mask, run without blocking the window, on real models),
// in the Log and in the window's notice. A fill-mask that fails or does not answer gives a plain reason.
#include "app/node/DemoFillMask.h"
#include "app/volunteer/DemoFillMaskRun.h"
#include "app/volunteer/DemoOutcome.h"
#include "tests/gui/support/GuiFixture.h"
#include "ui/ControlBar.h"
#include "ui/MainWindow.h"
#include "ui/TrayIcon.h"
#include "ui/panels/EventLogPanel.h"

#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace sahaj::testing;
using sahaj::node::DemoFillMask;
using sahaj::ui::EventLogPanel;
using sahaj::ui::MainWindow;
using sahaj::ui::TrayIcon;
using sahaj::volunteer::DemoFillMaskRun;
using sahaj::volunteer::DemoOutcome;

namespace {

// The demo's window over the fixture's engine and controller.
struct DemoWindow : GuiFixture {
    std::unique_ptr<MainWindow> window;

    explicit DemoWindow(bool demo) : GuiFixture(EngineState::Training) {
        startController().setDemo(demo);
        window = std::make_unique<MainWindow>(*engine, *controller);
    }

    // The engine as it ends when the run reached its last step.
    void finishRun() {
        EngineSnapshot snapshot = *engine->snapshot();
        snapshot.state = EngineState::Offline;
        snapshot.runFinished = true;
        snapshot.detail = QStringLiteral("the run reached its last step");
        engine->show(snapshot);
    }
};

using Predictions = QList<DemoFillMaskRun::Prediction>;

// What a DemoFillMaskRun finds: it runs until every model answered or failed.
Predictions runToTheEnd(DemoFillMaskRun& run) {
    QSignalSpy finished(&run, &DemoFillMaskRun::finished);
    run.start();
    if (!finished.wait(300000))
        return {};
    return finished.first().first().value<Predictions>();
}

} // namespace

class TestDemoEnd : public QObject {
    Q_OBJECT

    QTemporaryDir work_;
    QString node_;
    QString sentence_;
    QString before_;
    QString after_;

    // A real model folder of the tiny config: train-local's checkpoint after `steps` steps.
    bool trainModel(const QString& name, int steps) {
        QProcess train;
        train.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        train.start(node_, {"train-local",
                            "--config",
                            "tiny",
                            "--corpus",
                            qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/data/corpus/bn-train.txt",
                            "--tokenizer",
                            qEnvironmentVariable("SAHAJ_SAMPLE_TOKENIZER"),
                            "--steps",
                            QString::number(steps),
                            "--batch",
                            "4",
                            "--seq",
                            "32",
                            "--lr",
                            "0.01",
                            "--warmup",
                            "1",
                            "--threads",
                            "1",
                            "--out",
                            work_.filePath(name)});
        return train.waitForFinished(300000) && train.exitStatus() == QProcess::NormalExit &&
               train.exitCode() == 0;
    }

private Q_SLOTS:
    void initTestCase() {
        node_ = qEnvironmentVariable("SAHAJ_NODE");
        QVERIFY2(QFile::exists(node_), "SAHAJ_NODE not set");
        QVERIFY2(QFile::exists(qEnvironmentVariable("SAHAJ_SAMPLE_TOKENIZER")),
                 "SAHAJ_SAMPLE_TOKENIZER not set");
        QVERIFY(work_.isValid());
        sentence_ = DemoFillMask::sentence(
            qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/data/corpus/bn-train.txt", nullptr);
        QVERIFY(sentence_.contains(QStringLiteral("[MASK]")));
        QVERIFY(trainModel(QStringLiteral("before"), 1));
        QVERIFY(trainModel(QStringLiteral("after"), 4));
        before_ = work_.filePath(QStringLiteral("before/checkpoint"));
        after_ = work_.filePath(QStringLiteral("after/checkpoint"));
    }

    // The demo's run reaching its last step is the demo's end: the state line says so and how to join a
    // real run, and nothing is notified (no "Sahaj is disconnected", no "Sahaj stopped training").
    void theDemosEndIsNoDisconnection() {
        DemoWindow demo(true);
        QSignalSpy notified(demo.window->tray(), &TrayIcon::notified);
        demo.finishRun();
        QCOMPARE(notified.size(), 0);
        const QString status = demo.window->statusLine()->text();
        QVERIFY2(status.startsWith(QStringLiteral("Demo finished")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("Join…")), qPrintable(status));
        QVERIFY2(!status.contains(QStringLiteral("Offline")), qPrintable(status));
        QVERIFY2(!demo.window->noticeLabel()->isVisibleTo(demo.window.get()),
                 qPrintable(demo.window->noticeLabel()->text()));
        bool controlBarSaysIt = false;
        for (const QLabel* label : demo.window->controlBar()->findChildren<QLabel*>())
            controlBarSaysIt = controlBarSaysIt || label->text() == status;
        QVERIFY2(controlBarSaysIt, "the control bar's state does not say that the demo finished");

        // A real run's window is told as before: its end is not the demo's.
        DemoWindow run(false);
        QSignalSpy told(run.window->tray(), &TrayIcon::notified);
        run.finishRun();
        QCOMPARE(told.size(), 1);
        QVERIFY(!run.window->statusLine()->text().contains(QStringLiteral("Demo")));
    }

    // The fill-mask of the untrained and the trained model, run as the app runs it, shown in the Log and
    // in the window's notice beside the steps and the loss.
    void showsWhatTheModelPutsAtTheMaskBeforeAndAfter() {
        DemoFillMaskRun run(node_, sentence_, {before_, after_});
        const Predictions predictions = runToTheEnd(run);
        QCOMPARE(predictions.size(), 2);
        QVERIFY2(predictions[0].problem.isEmpty(), qPrintable(predictions[0].problem));
        QVERIFY2(predictions[1].problem.isEmpty(), qPrintable(predictions[1].problem));
        // The same words `sahaj-node demo` prints for these models.
        QCOMPARE(predictions[0].guesses, DemoFillMask::predict(node_, before_, sentence_));
        QCOMPARE(predictions[1].guesses, DemoFillMask::predict(node_, after_, sentence_));

        DemoWindow demo(true);
        EngineSnapshot end = *demo.engine->snapshot();
        end.globalEpoch = 100;
        end.loss = {{1, 11.07}, {50, 9.5}, {100, 7.81}};
        const QStringList lines = DemoOutcome::lines(end, sentence_, predictions[0], predictions[1]);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], QStringLiteral("The demo finished: 100 steps, loss 11.07 → 7.81."));
        QCOMPARE(lines[1], QStringLiteral("Fill-mask \"%1\" — before training: «%2»; after: «%3».")
                               .arg(sentence_, predictions[0].guesses, predictions[1].guesses));

        demo.window->showDemoOutcome(lines);
        const auto* log = demo.window->findChild<EventLogPanel*>();
        QVERIFY(log);
        const QStringList shown = log->visibleLines();
        QVERIFY(shown.size() >= 2);
        QVERIFY2(shown[shown.size() - 2].endsWith(lines[0]), qPrintable(shown.join('\n')));
        QVERIFY2(shown.last().endsWith(lines[1]), qPrintable(shown.join('\n')));
        const QLabel* notice = demo.window->noticeLabel();
        QVERIFY(notice->isVisibleTo(demo.window.get()));
        QCOMPARE(notice->text(), lines.join('\n'));
        // It stays: a rules' warning would be gone after a while, the demo's outcome is there to be read.
        demo.finishRun();
        QCOMPARE(notice->text(), lines.join('\n'));
    }

    // A tool that cannot run, or does not answer in time, gives a plain reason instead of guesses.
    void aFillMaskThatFailsSaysSoPlainly() {
        DemoFillMaskRun missing(work_.filePath(QStringLiteral("no-such-program")), sentence_,
                                {before_, after_});
        Predictions predictions = runToTheEnd(missing);
        QCOMPARE(predictions.size(), 2);
        for (const DemoFillMaskRun::Prediction& prediction : predictions) {
            QVERIFY(prediction.guesses.isEmpty());
            QVERIFY2(prediction.problem.contains(QStringLiteral("could not be run")),
                     qPrintable(prediction.problem));
        }

        // A program that never answers: each model's run ends at the deadline.
        const QString silent = work_.filePath(QStringLiteral("silent"));
        QFile script(silent);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nexec sleep 600\n");
        script.close();
        QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
        DemoFillMaskRun slow(silent, sentence_, {before_, after_}, 1000);
        predictions = runToTheEnd(slow);
        QCOMPARE(predictions.size(), 2);
        QCOMPARE(predictions[0].problem, QStringLiteral("no answer within 1 s"));

        EngineSnapshot end;
        end.globalEpoch = 100;
        const QStringList lines = DemoOutcome::lines(end, sentence_, predictions[0], predictions[1]);
        QCOMPARE(lines[0], QStringLiteral("The demo finished: 100 steps."));
        QVERIFY2(lines[1].contains(QStringLiteral("before training: no prediction (no answer within 1 s)")),
                 qPrintable(lines[1]));
    }
};

QTEST_MAIN(TestDemoEnd)
#include "tst_demo_end.moc"
