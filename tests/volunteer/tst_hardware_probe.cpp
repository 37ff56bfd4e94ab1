// The wizard's hardware check: devices listed, memory read, a real forward and backward timed; a device
// that is not there or a micro-batch of nothing gives a reason instead of a figure.
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
        QVERIFY(!report.problem.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHardwareProbe)
#include "tst_hardware_probe.moc"
