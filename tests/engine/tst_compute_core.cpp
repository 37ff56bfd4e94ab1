// The engine's compute cores as real sahaj-core processes: the gradient that comes back through the socket
// and shared memory is the one the model computes in process; a core killed with SIGKILL, one that hangs
// (stopped with SIGSTOP), one that is no core at all, each ends in a failure that says so, leaves the
// engine's sum as it was, and the supervisor restarts a core after its back-off or moves to the next variant;
// two cores (standing for two GPUs of one peer) sum to what one core computes from the same samples; a core
// asked for a niceness runs every thread at it.
#include "core/device/GradientComputer.h"
#include "core/engine/ComputeCore.h"
#include "core/engine/CoreLocator.h"
#include "core/engine/CoreSupervisor.h"
#include "core/engine/GradientAccumulator.h"
#include "core/engine/ModelReplica.h"
#include "core/model/AlbertParameterLayout.h"
#include "core/model/ComputeThreads.h"
#include "tests/common/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <torch/torch.h>

#include <csignal>
#include <random>
#include <thread>
#include <unistd.h>

using namespace sahaj;
using namespace std::chrono_literals;

namespace {

compute::TokenBatch batchFor(const model::AlbertConfig& config, int rows, int width, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    compute::TokenBatch batch = compute::TokenBatch::padded(rows, width, 0);
    std::uniform_int_distribution<std::int64_t> token(5, config.vocabSize - 1);
    for (std::int64_t row = 0; row < rows; ++row) {
        const std::int64_t length = width - row % 3; // some padding
        for (std::int64_t column = 0; column < length; ++column) {
            const auto at = static_cast<std::size_t>(batch.index(row, column));
            batch.inputIds[at] = token(random);
            batch.attentionMask[at] = 1;
            batch.tokenTypeIds[at] = column >= length / 2 ? 1 : 0;
            if (column % 5 == 1)
                batch.mlmLabels[at] = token(random);
        }
        batch.sopLabels[static_cast<std::size_t>(row)] = row % 2;
    }
    return batch;
}

std::vector<float> initialParameters(const model::AlbertConfig& config, std::uint64_t seed) {
    return model::AlbertParameterLayout::initialValues(model::AlbertParameterLayout::of(config), seed);
}

// The niceness of each thread of process `pid` (/proc/PID/task/TID/stat, field 19).
std::vector<int> threadNiceness(pid_t pid) {
    std::vector<int> result;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString& task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile file(tasks.filePath(task + "/stat"));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = file.readAll();
        // After the command's closing parenthesis: field 3 (the state) onwards.
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 16)
            result.push_back(fields[16].toInt());
    }
    return result;
}

engine::CoreLaunch cpuCore() {
    std::vector<engine::CoreLaunch> launches = engine::CoreLocator::launchesFor("cpu", 1);
    return launches.front();
}

// Sends `signal` to the core's process after `delay`, from another thread, while the test waits on it.
std::thread signalLater(pid_t pid, int signal, std::chrono::milliseconds delay) {
    return std::thread([=] {
        std::this_thread::sleep_for(delay);
        ::kill(pid, signal);
    });
}

} // namespace

class TestComputeCore : public QObject {
    Q_OBJECT

    model::AlbertConfig tiny_ = model::AlbertConfig::named("tiny");
    std::vector<model::ParameterLayoutEntry> layout_ = model::AlbertParameterLayout::of(tiny_);

private Q_SLOTS:
    // One thread for ATen and OpenBLAS, as the core is told: BLAS sums in another order with another
    // thread count, and the first check compares bits.
    void initTestCase() { model::setComputeThreads(1); }

    void theCoresGradientIsTheModelsGradient() {
        engine::CoreLaunch launch = cpuCore();
        launch.seed = 42; // dropout draws the same in the core as here
        engine::ComputeCore core(launch, tiny_, layout_);
        QVERIFY(core.pid() > 0);
        QVERIFY2(QString::fromStdString(core.deviceName()).startsWith("cpu"), core.deviceName().c_str());
        const std::vector<float> parameters = initialParameters(tiny_, 11);
        core.loadParameters(parameters, 1);
        QCOMPARE(core.generation(), std::optional<std::uint64_t>(1));

        at::manual_seed(42);
        device::GradientComputer local(tiny_, c10::kCPU);
        local.loadParameters(parameters);
        std::vector<float> expected(parameters.size(), 0.0f), one(parameters.size());
        std::vector<float> sum(parameters.size(), 0.0f);
        double expectedLoss = 0.0;
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            const compute::TokenBatch batch = batchFor(tiny_, 4, 24, seed);
            const device::GradientComputer::Result reference = local.compute(batch, one);
            for (std::size_t i = 0; i < one.size(); ++i)
                expected[i] += one[i];
            const engine::ComputeCore::Result result = core.compute(batch, sum);
            QCOMPARE(result.samples, std::int64_t{4});
            QCOMPARE(result.tokens, batch.tokens());
            QCOMPARE(result.loss, reference.loss);
            expectedLoss = reference.loss;
        }
        QVERIFY(expectedLoss > 5.0);
        // The same libtorch with the same threads: the same bits.
        QVERIFY(std::memcmp(sum.data(), expected.data(), sum.size() * sizeof(float)) == 0);
        double norm = 0.0;
        for (const float value : sum)
            norm += static_cast<double>(value) * value;
        QVERIFY(norm > 0.0);

        // New parameters, a new generation: the gradient changes with them.
        std::vector<float> moved = parameters;
        for (float& value : moved)
            value *= 0.5f;
        core.loadParameters(moved, 2);
        std::vector<float> after(parameters.size(), 0.0f);
        core.compute(batchFor(tiny_, 4, 24, 1), after);
        local.loadParameters(moved);
        local.compute(batchFor(tiny_, 4, 24, 1), one);
        QVERIFY(std::memcmp(after.data(), one.data(), one.size() * sizeof(float)) == 0);
    }

    // A core asked to run at niceness 19 (a volunteer's engine and programs first) lowers its priority
    // before any of its threads starts: every thread has it once it computes; a core not asked has the
    // engine's.
    void aNicedCoreRunsEveryThreadAtItsNiceness() {
        engine::CoreLaunch launch = cpuCore();
        launch.threads = 2;
        launch.niceness = 19;
        engine::ComputeCore niced(launch, tiny_, layout_);
        engine::ComputeCore plain(cpuCore(), tiny_, layout_);
        std::vector<float> sum(static_cast<std::size_t>(model::AlbertParameterLayout::elements(layout_)));
        for (engine::ComputeCore* core : {&niced, &plain}) {
            core->loadParameters(initialParameters(tiny_, 11), 1);
            core->compute(batchFor(tiny_, 4, 24, 1), sum);
        }
        const std::vector<int> nicedThreads = threadNiceness(niced.pid());
        QVERIFY(!nicedThreads.empty());
        for (const int niceness : nicedThreads)
            QCOMPARE(niceness, 19);
        const int engine = threadNiceness(::getpid()).front();
        QVERIFY(engine < 19);
        for (const int niceness : threadNiceness(plain.pid()))
            QCOMPARE(niceness, engine);
    }

    void aKilledCoreLeavesTheSumAsItWas() {
        const model::AlbertConfig small = model::AlbertConfig::named("small"); // a micro-batch takes a while
        engine::ComputeCore core(cpuCore(), small, model::AlbertParameterLayout::of(small));
        const std::vector<float> parameters = initialParameters(small, 3);
        core.loadParameters(parameters, 1);
        std::vector<float> sum(parameters.size(), 1.0f);
        std::thread killer = signalLater(core.pid(), SIGKILL, 300ms);
        QString message;
        try {
            core.compute(batchFor(small, 16, 128, 1), sum);
        } catch (const engine::ComputeCoreFailure& e) {
            message = e.what();
        }
        killer.join();
        QVERIFY2(message.contains("killed by signal 9"), qPrintable(message));
        QVERIFY(std::all_of(sum.begin(), sum.end(), [](float value) { return value == 1.0f; }));
    }

    void aHungCoreIsDetectedByItsMissingHeartbeats() {
        const model::AlbertConfig small = model::AlbertConfig::named("small");
        engine::CoreLaunch launch = cpuCore();
        launch.silenceTimeout = 2s;
        engine::ComputeCore core(launch, small, model::AlbertParameterLayout::of(small));
        const pid_t pid = core.pid();
        core.loadParameters(initialParameters(small, 3), 1);
        std::vector<float> sum(static_cast<std::size_t>(small.parameterCount()), 0.0f);
        std::thread stopper = signalLater(pid, SIGSTOP, 300ms);
        QString message;
        try {
            core.compute(batchFor(small, 64, 128, 1), sum);
        } catch (const engine::ComputeCoreFailure& e) {
            message = e.what();
        }
        stopper.join();
        QVERIFY2(message.contains("no heartbeat") && message.contains("hangs"), qPrintable(message));
        QVERIFY2(::kill(pid, 0) != 0, "the hung core was left running"); // killed and reaped
    }

    void somethingThatIsNoCoreFailsClearly() {
        engine::CoreLaunch launch = cpuCore();
        launch.executable = "/bin/true";
        launch.variant = "bogus";
        QString message;
        try {
            engine::ComputeCore core(launch, tiny_, layout_);
        } catch (const engine::ComputeCoreFailure& e) {
            message = e.what();
        }
        QVERIFY2(message.startsWith("the bogus core") && message.contains("exited"), qPrintable(message));
        launch.executable = "/nonexistent/sahaj-core";
        QVERIFY_THROWS_EXCEPTION(engine::ComputeCoreFailure, engine::ComputeCore(launch, tiny_, layout_));
    }

    void twoCoresSumToWhatOneComputesFromTheSameSamples() {
        const QString tokenizer = test::sampleTokenizerPath();
        model::AlbertConfig config = tiny_;
        config.classifierDropoutProb = 0.0; // no dropout: both cores' draws would differ
        engine::AccumulatorOptions data;
        data.corpusPath = qEnvironmentVariable("SAHAJ_SOURCE_DIR") + "/tests/train/data/bengali-sample.txt";
        data.tokenizerPath = tokenizer;
        data.sequenceLength = 64;
        data.microBatchSize = 4;
        data.seed = 9;
        const engine::ModelReplica replica(config, run::TrainingSettings{}, 17);
        const auto accumulator = [&](int cores) {
            std::vector<std::unique_ptr<engine::CoreSupervisor>> supervisors;
            for (int i = 0; i < cores; ++i)
                supervisors.push_back(std::make_unique<engine::CoreSupervisor>(
                    std::vector<engine::CoreLaunch>{cpuCore()}, config));
            return std::make_unique<engine::GradientAccumulator>(data, std::move(supervisors),
                                                                 replica.parameterCount());
        };
        const auto one = accumulator(1);
        const auto two = accumulator(2);
        QCOMPARE(one->accumulate(replica) + one->accumulate(replica), std::int64_t{8});
        QCOMPARE(two->accumulate(replica), std::int64_t{8}); // the same two micro-batches, at once
        QCOMPARE(two->samples(), one->samples());
        QCOMPARE(two->tokens(), one->tokens());
        QVERIFY(qFuzzyCompare(two->meanLoss(), one->meanLoss()));
        const std::vector<float> a = one->gradientVector(replica.lossOffset());
        const std::vector<float> b = two->gradientVector(replica.lossOffset());
        QCOMPARE(a.size(), b.size());
        double largest = 0.0, difference = 0.0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            largest = std::max(largest, static_cast<double>(std::abs(a[i])));
            difference = std::max(difference, static_cast<double>(std::abs(a[i] - b[i])));
        }
        QVERIFY(largest > 0.0);
        QVERIFY2(difference <= 1e-6 * largest, qPrintable(QString::number(difference / largest)));
    }

    void theSupervisorRestartsAfterItsBackOffAndPassesOverABadVariant() {
        engine::CoreLaunch bad = cpuCore();
        bad.executable = "/bin/false";
        bad.variant = "broken";
        engine::CoreSupervisor::Policy policy;
        policy.firstBackOff = 200ms;
        policy.failuresPerVariant = 2;
        engine::CoreSupervisor cores({bad, cpuCore()}, tiny_, policy);
        const std::vector<float> parameters = initialParameters(tiny_, 5);
        std::vector<float> sum(parameters.size(), 0.0f);
        const compute::TokenBatch batch = batchFor(tiny_, 2, 16, 1);

        QVERIFY(!cores.compute(batch, parameters, 1, sum)); // broken, 1st failure: back off 200 ms
        QVERIFY(!cores.ready());
        QVERIFY(!cores.compute(batch, parameters, 1, sum)); // not even tried while it backs off
        QTRY_VERIFY_WITH_TIMEOUT(cores.ready(), 5000);
        QVERIFY(!cores.compute(batch, parameters, 1, sum)); // 2nd failure: marked bad, the next variant
        QVERIFY(cores.ready());
        QVERIFY(cores.compute(batch, parameters, 1, sum));
        const pid_t first = cores.corePid();
        QVERIFY(first > 0);
        std::vector<std::string> log = cores.takeMessages();
        const auto said = [&](const char* text) {
            return std::any_of(log.begin(), log.end(),
                               [&](const std::string& line) { return line.find(text) != std::string::npos; });
        };
        QVERIFY(said("restarting in 1 s"));
        QVERIFY(said("the broken core is marked bad for cpu after 2 failures"));
        QVERIFY(said("compute core started: cpu"));

        // The working core dies: one micro-batch lost, then a new process after the back-off.
        ::kill(first, SIGKILL);
        const std::vector<float> before = sum;
        QVERIFY(!cores.compute(batch, parameters, 1, sum));
        QCOMPARE(sum, before);
        QTRY_VERIFY_WITH_TIMEOUT(cores.ready(), 5000);
        QVERIFY(cores.compute(batch, parameters, 1, sum));
        QVERIFY(cores.corePid() > 0 && cores.corePid() != first);
    }
};

QTEST_GUILESS_MAIN(TestComputeCore)
#include "tst_compute_core.moc"
