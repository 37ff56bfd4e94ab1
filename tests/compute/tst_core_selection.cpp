// Choosing a compute core (core/compute): manifests read strictly, versions compared part by part, the
// preferred core that a GPU meets the needs of, every core passed over with its reason, the cpu core
// when no GPU qualifies, and the GPU check's report read back strictly.
#include "core/compute/CoreManifest.h"
#include "core/compute/CoreSelection.h"
#include "core/compute/DottedVersion.h"
#include "core/compute/NvmlProbe.h"
#include "tests/common/TestFiles.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sahaj::compute;
using sahaj::test::errorOf;

namespace {

CoreManifest manifest(const std::string& json) {
    return CoreManifest::parse(json, "/opt/cores/x", "test");
}

const char* kCuda = R"({"name": "cuda", "device": "cuda", "executable": "bin/sahaj-core",
    "min_compute_capability": "7.0", "min_driver": "525.60", "min_memory_mb": 4096, "preference": 100})";
const char* kCpu = R"({"name": "cpu", "device": "cpu", "executable": "sahaj-core"})";

GpuDevice gpu(int index, int major, int minor, std::uint64_t memoryMb, const std::string& driver) {
    return {index,
            "Test GPU " + std::to_string(index),
            "GPU-" + std::to_string(index),
            memoryMb << 20,
            major,
            minor,
            driver};
}

} // namespace

class TestCoreSelection : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void manifestsAreReadStrictly() {
        const CoreManifest cuda = manifest(kCuda);
        QCOMPARE(cuda.executable.string(), std::string("/opt/cores/x/bin/sahaj-core"));
        QCOMPARE(cuda.minComputeMajor, 7);
        QCOMPARE(cuda.minMemoryBytes, std::uint64_t(4096) << 20);
        QCOMPARE(cuda.preference, 100);
        QVERIFY(cuda.tools.empty());
        QCOMPARE(manifest(R"({"name":"x","device":"cpu","executable":"a","tools":"bin/sahaj-model"})")
                     .tools.string(),
                 std::string("/opt/cores/x/bin/sahaj-model"));
        QVERIFY(errorOf([] {
                    manifest(R"({"name":"x","device":"cpu","executable":"a","tools":"../sahaj-model"})");
                }).contains("\"tools\" must be a path inside the core's folder"));
        QVERIFY(errorOf([] { manifest("hello"); }).contains("not valid JSON"));
        QVERIFY(errorOf([] {
                    manifest(R"({"name":"x","device":"tpu","executable":"a"})");
                }).contains("\"device\""));
        QVERIFY(errorOf([] {
                    manifest(R"({"name":"x","device":"cpu","executable":"../../bin/sh"})");
                }).contains("inside the core's folder"));
        QVERIFY(errorOf([] {
                    manifest(R"({"name":"x","device":"cpu","executable":"/bin/sh"})");
                }).contains("inside the core's folder"));
        QVERIFY(errorOf([] {
                    manifest(R"({"name":"x","device":"cpu","executable":"a","speed":1})");
                }).contains("unknown field \"speed\""));
        QVERIFY(errorOf([] {
                    manifest(
                        R"({"name":"x","device":"cuda","executable":"a","min_compute_capability":"seven"})");
                }).contains("MAJOR.MINOR"));
        QVERIFY(errorOf([] {
                    manifest(R"({"name":"x","device":"cpu","executable":"a","min_driver":"525"})");
                }).contains("no GPU requirements"));
    }

    void versionsComparePartByPart() {
        QVERIFY(*DottedVersion::parse("525.60") < *DottedVersion::parse("535.104.05"));
        QVERIFY(*DottedVersion::parse("9.9") < *DottedVersion::parse("10.0"));
        QVERIFY(!(*DottedVersion::parse("525.60.0") < *DottedVersion::parse("525.60")));
        QVERIFY(!DottedVersion::parse("525.x"));
        QVERIFY(!DottedVersion::parse(""));
        QVERIFY(!DottedVersion::parse("1..2"));
    }

    void aGpuThatQualifiesGetsTheGpuCore() {
        const std::vector<CoreManifest> cores{manifest(kCpu), manifest(kCuda)};
        const auto chosen = CoreSelection::choose({gpu(0, 8, 6, 24576, "535.104.05")}, cores);
        QCOMPARE(chosen.size(), std::size_t(1));
        QCOMPARE(chosen[0].gpuIndex, std::optional<int>(0));
        QCOMPARE(chosen[0].candidates.size(), std::size_t(1));
        QCOMPARE(chosen[0].candidates[0].name, std::string("cuda"));
    }

    // One core per enabled GPU; a GPU that no core fits stays idle, and the reason is shown.
    void oneCorePerGpuAndReasonsForTheRest() {
        const std::vector<CoreManifest> cores{manifest(kCpu), manifest(kCuda)};
        const auto chosen = CoreSelection::choose(
            {gpu(0, 8, 0, 40960, "535.54"), gpu(1, 6, 1, 8192, "535.54"), gpu(2, 8, 9, 24576, "535.54")},
            cores);
        QCOMPARE(chosen.size(), std::size_t(2));
        QCOMPARE(chosen[0].gpuIndex, std::optional<int>(0));
        QCOMPARE(chosen[1].gpuIndex, std::optional<int>(2));
        QCOMPARE(chosen[0].passedOver.size(), std::size_t(1));
        QVERIFY2(
            QString::fromStdString(chosen[0].passedOver[0]).contains("GPU 1") &&
                QString::fromStdString(chosen[0].passedOver[0]).contains("compute capability 6.1 below 7.0"),
            chosen[0].passedOver[0].c_str());
    }

    void theCpuCoreWhenNoGpuQualifies() {
        const std::vector<CoreManifest> cores{manifest(kCpu), manifest(kCuda)};
        const auto chosen =
            CoreSelection::choose({gpu(0, 8, 6, 2048, "535.54"), gpu(1, 8, 6, 8192, "470.1")}, cores);
        QCOMPARE(chosen.size(), std::size_t(1));
        QVERIFY(!chosen[0].gpuIndex);
        QCOMPARE(chosen[0].candidates[0].name, std::string("cpu"));
        QCOMPARE(chosen[0].passedOver.size(), std::size_t(2));
        QVERIFY(
            QString::fromStdString(chosen[0].passedOver[0]).contains("2048 MiB of memory, 4096 MiB needed"));
        QVERIFY(QString::fromStdString(chosen[0].passedOver[1]).contains("driver 470.1 older than 525.60"));
        // Without GPUs, and with no GPU core installed.
        QCOMPARE(CoreSelection::choose({}, cores)[0].candidates[0].name, std::string("cpu"));
        const auto noGpuCore = CoreSelection::choose({gpu(0, 8, 6, 8192, "535.54")}, {manifest(kCpu)});
        QVERIFY(QString::fromStdString(noGpuCore[0].passedOver[0]).contains("no GPU core is installed"));
        QVERIFY(errorOf([&] {
                    CoreSelection::choose({gpu(0, 5, 0, 8192, "535.54")}, {manifest(kCuda)});
                }).contains("no cpu core is installed"));
    }

    void discoveryReadsEachCoreFolderAndReportsBadOnes() {
        QTemporaryDir root;
        const auto write = [&](const QString& folder, const QByteArray& text) {
            QDir(root.path()).mkpath(folder);
            sahaj::test::writeFile(root, folder + "/core.json", text);
        };
        write("cpu", kCpu);
        write("cuda", kCuda);
        write("broken", "{");
        std::vector<std::string> problems;
        const auto cores =
            CoreManifest::discover({root.path().toStdString(), "/nonexistent/sahaj"}, problems);
        QCOMPARE(cores.size(), std::size_t(2));
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(problems[0]).contains("broken/core.json"));
    }

    void gpuReportsRoundTripAndBadOnesAreRefused() {
        NvmlProbe::Result result;
        result.gpus = {gpu(0, 9, 0, 143771, "570.86.15")};
        const NvmlProbe::Result back = NvmlProbe::parseReport(NvmlProbe::report(result));
        QCOMPARE(back.gpus.size(), std::size_t(1));
        QCOMPARE(back.gpus[0].computeMajor, 9);
        QCOMPARE(back.gpus[0].memoryBytes, std::uint64_t(143771) << 20);
        QCOMPARE(back.gpus[0].driverVersion, std::string("570.86.15"));
        QVERIFY(errorOf([] { NvmlProbe::parseReport("[]"); }).contains("no list"));
        QVERIFY(errorOf([] {
                    NvmlProbe::parseReport(R"({"gpus":[{"index":0}],"problem":""})");
                }).contains("memory size"));
        QVERIFY(errorOf([] { NvmlProbe::parseReport(std::string(300000, ' ')); }).contains("256 KiB"));
    }
};

QTEST_APPLESS_MAIN(TestCoreSelection)
#include "tst_core_selection.moc"
