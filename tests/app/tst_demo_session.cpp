// The desktop app's demo (`sahaj-volunteer --demo`) trains as `sahaj-node demo` does: the batch, the peak
// rate, the gathering times and the schedule of LocalCollaboration::DemoTraining, the settings measured to
// make the tiny model learn within minutes; nothing is started.
#include "app/volunteer/DemoSession.h"

#include <QTest>

using sahaj::engine::LocalCollaboration;
using sahaj::volunteer::DemoSession;

class TestDemoSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void trainsWithTheDemosSettings() {
        const sahaj::node::DemoFiles files{QStringLiteral("/demo/sahaj-node"),
                                           QStringLiteral("/demo/train.txt"),
                                           QStringLiteral("/demo/tokenizer.json")};
        const LocalCollaboration::Options options = DemoSession::collaborationOptions(files, "/tmp/demo-run");
        const LocalCollaboration::DemoTraining demo;
        QCOMPARE(options.targetBatch, demo.targetBatch);
        QCOMPARE(options.learningRate, demo.learningRate);
        QCOMPARE(options.totalSteps, demo.scheduleSteps);
        const QStringList gathering = demo.options().peerArguments;
        QCOMPARE(options.peerArguments.mid(0, gathering.size()), gathering);
        QCOMPARE(options.nodeProgram, files.nodeProgram);
        QCOMPARE(options.corpus, files.corpus);
        QCOMPARE(options.tokenizer, files.tokenizer);
        QCOMPARE(options.folder, QStringLiteral("/tmp/demo-run"));
    }

    // The measured settings (docs/collaboration.md), and a schedule whose rate falls to 0 within a couple of
    // hundred steps: the desktop demo has no step count, and a rate held near its peak diverges.
    void theDemosSettingsAreTheMeasuredOnes() {
        const LocalCollaboration::DemoTraining demo;
        QCOMPARE(demo.targetBatch, qint64(512));
        QCOMPARE(demo.learningRate, 0.15);
        QCOMPARE(demo.gatherMs, qint64(1500));
        QCOMPARE(demo.minGatherMs(), qint64(500));
        QVERIFY(demo.scheduleSteps >= 60 && demo.scheduleSteps <= 200);
        const LocalCollaboration::Options options = demo.options();
        QCOMPARE(options.peerArguments, QStringList({"--gather-ms", "1500", "--min-gather-ms", "500"}));
        QCOMPARE(options.totalSteps, demo.scheduleSteps);
    }
};

QTEST_GUILESS_MAIN(TestDemoSession)
#include "tst_demo_session.moc"
