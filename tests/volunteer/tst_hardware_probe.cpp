// The wizard's hardware check through the real cpu core (sahaj-core --self-test): devices listed, memory
// read, a real forward and backward timed; a device that is not there, a micro-batch of nothing or a model
// that does not exist gives a reason instead of a figure, and a core that hangs is cut off. The self-test's
// own report has the fields docs/compute-cores.md gives it. "auto" measures what the engine would choose,
// and a GPU core whose real self-test fails (this build's libtorch has no CUDA) or that dies at once
// makes way for the cpu core, each with the reason in the core's words.
#include "core/compute/CoreManifest.h"
#include "core/engine/CoreLocator.h"
#include "core/engine/CorePlanner.h"
#include "core/engine/CoreSelfTestProcess.h"
#include "core/engine/HardwareProbe.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>

using sahaj::engine::CoreLaunch;
using sahaj::engine::CoreLocator;
using sahaj::engine::CorePlan;
using sahaj::engine::CorePlanner;
using sahaj::engine::CoreSelfTestProcess;
using sahaj::engine::HardwareProbe;

namespace {

bool anyContains(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& line : lines)
        if (line.find(text) != std::string::npos)
            return true;
    return false;
}

void writeFile(const QString& path, const QByteArray& text, bool executable = false) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(text), text.size());
    file.close();
    if (executable)
        QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
}

} // namespace

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

    void theSelfTestReportsWhatItDocuments() {
        const CoreLaunch core = CoreLocator::launchesFor("cpu", 1).front();
        QProcess process;
        process.start(QString::fromStdString(core.executable.string()),
                      {"--self-test", "--config", "tiny", "--micro-batch", "3", "--seconds", "5"});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);
        const QJsonObject report =
            QJsonDocument::fromJson(process.readAllStandardOutput().trimmed()).object();
        QCOMPARE(report["ok"].toBool(), true);
        QVERIFY2(report["device"].toString().startsWith(QStringLiteral("cpu")), // "cpu, 1 thread"
                 qPrintable(report["device"].toString()));
        QVERIFY(report["devices"].toArray().contains(QStringLiteral("cpu")));
        QCOMPARE(report["micro_batch"].toInt(), 3);
        QVERIFY(report["samples_per_second"].toDouble() > 0.0);
        // Random tokens over a 30000-word vocabulary: the MLM loss starts near ln 30000 ~ 10.3 (+ SOP's).
        const double loss = report["loss"].toDouble();
        QVERIFY2(std::isfinite(loss) && loss > 5.0 && loss < 20.0, qPrintable(QString::number(loss)));
    }

    void autoMeasuresWhatTheEngineWouldChoose() {
        const auto report = HardwareProbe::measure(QStringLiteral("auto"), 2, "tiny");
        QVERIFY2(report.problem.isEmpty(), qPrintable(report.problem));
        QVERIFY(!report.training.isEmpty());
        QVERIFY2(report.training.front().contains(report.device), qPrintable(report.training.join("; ")));
        QVERIFY(report.samplesPerSecond > 0.0);
        // Where the CPU trains, the report says why no GPU does (no driver here, or no GPU core).
        if (report.device == QLatin1String("cpu"))
            QVERIFY2(!report.passedOver.isEmpty(), qPrintable(report.training.join("; ")));
    }

    void aGpuCoreThatFailsItsSelfTestMakesWayForTheCpuCore() {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const CoreLaunch cpu = CoreLocator::launchesFor("cpu", 1).front();
        // The real core as a cuda variant (its libtorch has no CUDA), and one that dies at once.
        const QString cuda = root.filePath(QStringLiteral("cuda"));
        const QString broken = root.filePath(QStringLiteral("broken"));
        QVERIFY(QDir().mkpath(cuda) && QDir().mkpath(broken));
        std::filesystem::create_symlink(cpu.executable, (cuda + "/sahaj-core").toStdString());
        writeFile(cuda + "/core.json",
                  R"({"name": "cuda", "device": "cuda", "executable": "sahaj-core", "preference": 100})");
        writeFile(broken + "/core.json",
                  R"({"name": "broken", "device": "cuda", "executable": "run", "preference": 200})");
        writeFile(broken + "/run", "#!/bin/sh\necho 'sahaj-core: no CUDA driver found' >&2\nexit 4\n", true);
        std::vector<std::string> problems;
        std::vector<sahaj::compute::CoreManifest> installed =
            sahaj::compute::CoreManifest::discover({root.path().toStdString()}, problems);
        QCOMPARE(installed.size(), std::size_t(2));
        installed.push_back(sahaj::compute::CoreManifest::parse(
            R"({"name": "cpu", "device": "cpu", "executable": "sahaj-core"})", cpu.executable.parent_path(),
            "the build's cpu core"));
        // This machine's driver report names no GPU; the one below is the test's, to make the cores try.
        sahaj::compute::NvmlProbe::Result detected;
        detected.gpus.push_back({0, "Test GPU", "GPU-0", 8ull << 30, 8, 6, "535.104.05"});
        std::vector<std::string> tried;
        const CorePlan plan =
            CorePlanner::plan("auto", 1, detected, installed, [&](const CoreLaunch& launch) {
                tried.push_back(launch.variant);
                return CoreSelfTestProcess::run(launch, "tiny", 2, 120000).problem.toStdString();
            });
        QCOMPARE(tried, (std::vector<std::string>{"broken", "cuda"}));
        QVERIFY(anyContains(plan.passedOver, "broken core on cuda:0: no CUDA driver found"));
        QCOMPARE(plan.devices.size(), std::size_t(1));
        QCOMPARE(plan.devices[0].size(), std::size_t(1));
        QCOMPARE(plan.devices[0][0].variant, std::string("cpu"));
        QCOMPARE(plan.summary(), std::string("cpu core on cpu"));
        // The real core said why in its own words (libtorch's "compiled without CUDA" or the like).
        QVERIFY(anyContains(plan.passedOver, "cuda core on cuda:0: self-test failed: "));
        for (const std::string& reason : plan.passedOver)
            qInfo("passed over: %s", reason.c_str());
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
