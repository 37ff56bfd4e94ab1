// The GPU check as the engine runs it: the real `sahaj-core --detect-gpus` child (and `sahaj-node
// detect-gpus`, the same check for people) answers with a report this machine's driver (or its absence)
// explains; a check that hangs, fails, crashes or prints no report costs
// only the child and says so, and no GPU is used.
#include "core/engine/CoreLocator.h"
#include "core/engine/GpuDetection.h"
#include "tests/common/NodeProcess.h"

#include <QTest>

using sahaj::engine::GpuDetection;

class TestGpuDetection : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theRealCheckAnswers_data() {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("the cpu core")
            << QString::fromStdString(
                   sahaj::engine::CoreLocator::launchesFor("cpu", 0).front().executable.string())
            << QStringList{"--detect-gpus"};
        QTest::newRow("sahaj-node") << sahaj::test::nodeExecutable() << QStringList{"detect-gpus"};
    }

    void theRealCheckAnswers() {
        QFETCH(QString, program);
        QFETCH(QStringList, arguments);
        const auto result = GpuDetection::run(program, arguments);
        if (result.gpus.empty()) {
            // Without a GPU driver (CI) the report says so; a child that fails would say "GPU check".
            QVERIFY2(QString::fromStdString(result.problem).contains("NVIDIA"), result.problem.c_str());
            return;
        }
        for (const auto& gpu : result.gpus) {
            QVERIFY(gpu.memoryBytes > 0);
            QVERIFY(gpu.computeMajor > 0);
        }
    }

    void aCheckThatHangsIsEnded() {
        const auto result = GpuDetection::run("/bin/sh", {"-c", "sleep 60"}, 300);
        QVERIFY(result.gpus.empty());
        QVERIFY2(QString::fromStdString(result.problem).contains("did not answer within 0.3 s"),
                 result.problem.c_str());
    }

    void aCheckThatFailsOrCrashesOrBabbles() {
        QVERIFY(QString::fromStdString(GpuDetection::run("/bin/sh", {"-c", "exit 3"}).problem)
                    .contains("exited with status 3"));
        QVERIFY(QString::fromStdString(GpuDetection::run("/bin/sh", {"-c", "kill -SEGV $$"}).problem)
                    .contains("crashed"));
        QVERIFY(QString::fromStdString(GpuDetection::run("/bin/sh", {"-c", "echo hello"}).problem)
                    .contains("printed no report"));
        QVERIFY(QString::fromStdString(GpuDetection::run("/nonexistent/sahaj-node", {}).problem)
                    .contains("could not start"));
    }
};

QTEST_GUILESS_MAIN(TestGpuDetection)
#include "tst_gpu_detection.moc"
