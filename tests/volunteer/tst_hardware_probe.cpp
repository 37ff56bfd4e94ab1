// The wizard's hardware check through the real cpu core (sahaj-core --self-test): devices listed, memory
// read, a real forward and backward timed; a device that is not there, a micro-batch of nothing or a model
// that does not exist gives a reason instead of a figure, and a core that hangs is cut off.
#include "core/engine/HardwareProbe.h"

#include <QTest>

using sahaj::engine::HardwareProbe;

class TestHardwareProbe : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void measuresTheModelOnTheCpu() {
        const auto report = HardwareProbe::measure(QStringLiteral("cpu"), 2, "tiny");
        QVERIFY2(report.problem.isEmpty(), qPrintable(report.problem));
        QVERIFY(report.devices.contains(QStringLiteral("cpu")));
        QCOMPARE(report.device, QStringLiteral("cpu"));
        QCOMPARE(report.microBatch, 2);
        QVERIFY(report.memoryBytes > 0);
        QVERIFY(report.samplesPerSecond > 0.0);
    }

    void refusesWhatCannotBeMeasured() {
        auto report = HardwareProbe::measure(QStringLiteral("cuda:7"), 2, "tiny");
        QVERIFY(report.problem.contains(QStringLiteral("cuda:7")));
        QCOMPARE(report.samplesPerSecond, 0.0);
        report = HardwareProbe::measure(QStringLiteral("cpu"), 0, "tiny");
        QVERIFY(report.problem.contains(QStringLiteral("micro-batch")));
        report = HardwareProbe::measure(QStringLiteral("cpu"), 1, "no-such-model");
        QVERIFY2(report.problem.contains(QStringLiteral("no-such-model")), qPrintable(report.problem));
        // sahajBERT on one CPU thread cannot finish its self-test in a tenth of a second.
        report = HardwareProbe::measure(QStringLiteral("cpu"), 8, "sahajbert", 100);
        QVERIFY2(report.problem.contains(QStringLiteral("did not end")), qPrintable(report.problem));
        QCOMPARE(report.samplesPerSecond, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestHardwareProbe)
#include "tst_hardware_probe.moc"
