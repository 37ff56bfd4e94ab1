// Which cores compute on which devices (engine::CorePlanner) from the device setting, the GPUs the driver
// reported and the installed manifests: every GPU whose core passes its self-test gets one core, the cpu
// core last behind the first; a core that fails its self-test makes way for the next, and in the end for
// the cpu core; every GPU and core passed over keeps its reason. The self-test here is a function of the
// test's (the real one runs in tst_hardware_probe); no process starts.
#include "core/compute/CoreManifest.h"
#include "core/engine/CorePlanner.h"
#include "tests/common/TestFiles.h"

#include <QTest>

#include <map>

using namespace sahaj::compute;
using sahaj::engine::CoreLaunch;
using sahaj::engine::CorePlan;
using sahaj::engine::CorePlanner;
using sahaj::test::errorOf;

namespace {

CoreManifest manifest(const std::string& json) {
    return CoreManifest::parse(json, "/opt/cores/x", "test");
}

const CoreManifest kCpu = manifest(R"({"name": "cpu", "device": "cpu", "executable": "sahaj-core"})");
const CoreManifest kCuda = manifest(R"({"name": "cuda", "device": "cuda", "executable": "sahaj-core",
    "min_compute_capability": "7.0", "preference": 100})");
const CoreManifest kCudaOld = manifest(R"({"name": "cuda-old", "device": "cuda", "executable": "sahaj-core",
    "min_compute_capability": "5.0", "preference": 50})");

GpuDevice gpu(int index, int major) {
    return {index,
            "Test GPU " + std::to_string(index),
            "GPU-" + std::to_string(index),
            8ull << 30,
            major,
            0,
            "535.104.05"};
}

NvmlProbe::Result found(std::vector<GpuDevice> gpus) {
    return {std::move(gpus), {}};
}

// A self-test that passes except where `failures` says "variant@device" fails, and counts its calls.
struct ScriptedSelfTest {
    std::map<std::string, std::string> failures;
    std::vector<std::string> calls;

    CorePlanner::SelfTest function() {
        return [this](const CoreLaunch& launch) {
            const std::string key = launch.variant + "@" + launch.device;
            calls.push_back(key);
            const auto failure = failures.find(key);
            return failure == failures.end() ? std::string() : failure->second;
        };
    }
};

std::vector<std::string> variantsOf(const std::vector<CoreLaunch>& launches) {
    std::vector<std::string> names;
    for (const CoreLaunch& launch : launches)
        names.push_back(launch.variant + "@" + launch.device);
    return names;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& line : lines)
        if (line.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestCorePlanner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theCpuSettingUsesTheCpuCoreAlone() {
        ScriptedSelfTest test;
        const CorePlan plan = CorePlanner::plan("cpu", 3, found({gpu(0, 8)}), {kCuda, kCpu}, test.function());
        QCOMPARE(plan.devices.size(), std::size_t(1));
        QCOMPARE(variantsOf(plan.devices[0]), std::vector<std::string>{"cpu@cpu"});
        QCOMPARE(plan.devices[0][0].threads, 3);
        QCOMPARE(plan.summary(), std::string("cpu core on cpu"));
        QVERIFY(test.calls.empty()); // the cpu core needs no self-test: nothing comes after it
    }

    void withoutAGpuAutoSaysWhy() {
        ScriptedSelfTest test;
        const CorePlan plan = CorePlanner::plan(
            "auto", 0, {{}, "no NVIDIA driver: libnvidia-ml.so.1 not found"}, {kCuda, kCpu}, test.function());
        QCOMPARE(variantsOf(plan.devices.at(0)), std::vector<std::string>{"cpu@cpu"});
        QVERIFY(anyContains(plan.passedOver, "no GPU (no NVIDIA driver: libnvidia-ml.so.1 not found)"));
        QVERIFY(test.calls.empty());
    }

    void everyGpuThatPassesGetsACoreAndTheCpuComesLast() {
        ScriptedSelfTest test;
        const CorePlan plan = CorePlanner::plan("auto", 0, found({gpu(0, 8), gpu(1, 9)}),
                                                {kCpu, kCudaOld, kCuda}, test.function());
        QCOMPARE(plan.devices.size(), std::size_t(2));
        // The preferred core first, the untested fallback after it, the cpu core behind the first GPU only.
        QCOMPARE(variantsOf(plan.devices[0]),
                 (std::vector<std::string>{"cuda@cuda:0", "cuda-old@cuda:0", "cpu@cpu"}));
        QCOMPARE(variantsOf(plan.devices[1]), (std::vector<std::string>{"cuda@cuda:1", "cuda-old@cuda:1"}));
        QCOMPARE(test.calls, (std::vector<std::string>{"cuda@cuda:0", "cuda@cuda:1"}));
        QCOMPARE(plan.summary(),
                 std::string("cuda core on cuda:0 (Test GPU 0); cuda core on cuda:1 (Test GPU 1)"));
    }

    void aCoreThatFailsItsSelfTestMakesWayForTheNext() {
        ScriptedSelfTest test;
        test.failures["cuda@cuda:1"] = "CUDA error: no kernel image is available for execution on the device";
        const CorePlan plan = CorePlanner::plan("auto", 0, found({gpu(0, 8), gpu(1, 8)}),
                                                {kCpu, kCudaOld, kCuda}, test.function());
        QCOMPARE(variantsOf(plan.devices.at(1)), std::vector<std::string>{"cuda-old@cuda:1"});
        QVERIFY(anyContains(plan.passedOver, "cuda core on cuda:1: CUDA error: no kernel image"));
        QCOMPARE(plan.training.at(1), std::string("cuda-old core on cuda:1 (Test GPU 1)"));
    }

    void whenEveryGpuCoreFailsTheCpuCoreTrains() {
        ScriptedSelfTest test;
        test.failures["cuda@cuda:0"] = "self-test failed: CUDA driver version is insufficient";
        test.failures["cuda-old@cuda:0"] = "the cuda-old core's self-test did not end within 120 s";
        const CorePlan plan =
            CorePlanner::plan("auto", 0, found({gpu(0, 8)}), {kCpu, kCudaOld, kCuda}, test.function());
        QCOMPARE(plan.devices.size(), std::size_t(1));
        QCOMPARE(variantsOf(plan.devices[0]), std::vector<std::string>{"cpu@cpu"});
        QVERIFY(anyContains(plan.passedOver, "cuda core on cuda:0: self-test failed: CUDA driver version"));
        QVERIFY(
            anyContains(plan.passedOver, "cuda-old core on cuda:0: the cuda-old core's self-test did not"));
        // Without a cpu core nothing can train, and the refusal gives every reason.
        const QString refusal = errorOf([&] {
            CorePlanner::plan("auto", 0, found({gpu(0, 8)}), {kCudaOld, kCuda}, test.function());
        });
        QVERIFY2(refusal.contains("no cpu core is installed") &&
                     refusal.contains("driver version is insufficient"),
                 qPrintable(refusal));
    }

    void aGpuNoCoreFitsIsLeftIdleWithItsReason() {
        ScriptedSelfTest test;
        const CorePlan plan =
            CorePlanner::plan("auto", 0, found({gpu(0, 6), gpu(1, 8)}), {kCpu, kCuda}, test.function());
        QCOMPARE(plan.devices.size(), std::size_t(1));
        QCOMPARE(variantsOf(plan.devices[0]), (std::vector<std::string>{"cuda@cuda:1", "cpu@cpu"}));
        QVERIFY(anyContains(plan.passedOver, "compute capability 6.0 below 7.0"));
    }

    void aNamedGpuIsTheOnlyOneConsidered() {
        ScriptedSelfTest test;
        CorePlan plan =
            CorePlanner::plan("cuda:1", 0, found({gpu(0, 8), gpu(1, 8)}), {kCpu, kCuda}, test.function());
        QCOMPARE(variantsOf(plan.devices.at(0)), (std::vector<std::string>{"cuda@cuda:1", "cpu@cpu"}));
        QCOMPARE(plan.devices.size(), std::size_t(1));
        plan = CorePlanner::plan("cuda", 0, found({gpu(0, 8), gpu(1, 8)}), {kCpu, kCuda}, test.function());
        QCOMPARE(variantsOf(plan.devices.at(0)), (std::vector<std::string>{"cuda@cuda:0", "cpu@cpu"}));
        plan = CorePlanner::plan("cuda:5", 0, found({gpu(0, 8)}), {kCpu, kCuda}, test.function());
        QCOMPARE(variantsOf(plan.devices.at(0)), std::vector<std::string>{"cpu@cpu"});
        QVERIFY(anyContains(plan.passedOver, "GPU 5: the driver reports no such GPU"));
        for (const char* bad : {"tpu", "cuda:", "cuda:x", "cuda:-1", "cuda:123", "CPU", ""})
            QVERIFY2(errorOf([&] {
                         CorePlanner::plan(bad, 0, found({}), {kCpu}, test.function());
                     }).contains("unknown device"),
                     bad);
    }
};

QTEST_GUILESS_MAIN(TestCorePlanner)
#include "tst_core_planner.moc"
