// Training throughput: forward + backward + gradient clipping + LAMB for named configs, against the rate
// of a large GEMM measured in the same run on the same device. Prints samples/s, tokens/s, achieved
// GFLOP/s and model FLOP utilisation (achieved / GEMM rate). Depends on libtorch alone.
//
// Usage: sahaj-bench-train [--configs small,sahajbert] [--seq 128] [--batch small=32,sahajbert=8]
//                          [--steps 3] [--device cpu|cuda] [--precision bf16|fp16]
#include "bench/ModelFlops.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/AutocastGuard.h"
#include "core/model/PreTrainingLoss.h"
#include "core/model/TrainingSpeedProbe.h"
#include "core/train/GradientClipping.h"
#include "core/train/Lamb.h"
#include "core/train/ParameterGrouping.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using sahaj::model::AlbertConfig;
using Clock = std::chrono::steady_clock;

struct Options {
    std::vector<std::string> configs{"small", "sahajbert"};
    std::map<std::string, std::int64_t> batch{{"tiny", 64}, {"small", 32}, {"sahajbert", 8}};
    std::int64_t sequence = 128;
    int steps = 3;
    std::string device = "cpu";
    sahaj::model::AutocastPrecision precision = sahaj::model::AutocastPrecision::BFloat16;
};

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, separator);)
        if (!part.empty())
            parts.push_back(part);
    return parts;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::invalid_argument("missing value after " + arg);
            return argv[++i];
        };
        if (arg == "--configs")
            o.configs = split(value(), ',');
        else if (arg == "--seq")
            o.sequence = std::stoll(value());
        else if (arg == "--steps")
            o.steps = std::max(1, std::stoi(value()));
        else if (arg == "--device")
            o.device = value();
        else if (arg == "--precision") {
            const std::string p = value();
            if (p != "bf16" && p != "fp16")
                throw std::invalid_argument("--precision takes bf16 or fp16");
            o.precision = p == "fp16" ? sahaj::model::AutocastPrecision::Float16
                                      : sahaj::model::AutocastPrecision::BFloat16;
        } else if (arg == "--batch") {
            for (const std::string& item : split(value(), ',')) {
                const auto parts = split(item, '=');
                if (parts.size() != 2)
                    throw std::invalid_argument("--batch takes NAME=SIZE pairs, got '" + item + "'");
                o.batch[parts[0]] = std::stoll(parts[1]);
            }
        } else if (arg == "--help" || arg == "-h") {
            std::printf(
                "sahaj-bench-train [--configs small,sahajbert] [--seq 128] [--batch small=32,sahajbert=8]\n"
                "                  [--steps 3] [--device cpu|cuda] [--precision bf16|fp16]\n");
            std::exit(0);
        } else
            throw std::invalid_argument("unknown argument " + arg);
    }
    return o;
}

void synchronize(const torch::Device& device) {
    // A device-to-host copy waits for every queued kernel, on any libtorch version.
    if (device.is_cuda())
        torch::zeros({1}, torch::TensorOptions().device(device)).cpu();
}

// Best-of rate of C = A·B with square n×n matrices: the machine's practical ceiling for dense work.
double gemmGflops(const torch::Device& device, torch::ScalarType dtype) {
    const std::int64_t n = device.is_cuda() ? 8192 : 2048;
    const auto options = torch::TensorOptions().device(device).dtype(dtype);
    const torch::Tensor a = torch::randn({n, n}, options);
    const torch::Tensor b = torch::randn({n, n}, options);
    torch::Tensor c = torch::mm(a, b);
    synchronize(device);
    double best = 1e30;
    const int repeats = device.is_cuda() ? 20 : 5;
    for (int r = 0; r < 3; ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < repeats; ++i)
            torch::mm_out(c, a, b);
        synchronize(device);
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count() / repeats);
    }
    return 2.0 * static_cast<double>(n) * n * n / best / 1e9;
}

struct Batch {
    torch::Tensor inputIds, attentionMask, tokenTypeIds, mlmLabels, sopLabels;
    std::int64_t mlmPositions = 0;
};

// A synthetic batch shaped like real pre-training data: 15 % of positions labelled, two segments.
Batch makeBatch(const AlbertConfig& config, std::int64_t batch, std::int64_t sequence,
                const torch::Device& device) {
    const auto longs = torch::TensorOptions().dtype(torch::kLong);
    Batch b;
    b.inputIds = torch::randint(5, config.vocabSize, {batch, sequence}, longs);
    b.attentionMask = torch::ones({batch, sequence}, longs);
    b.tokenTypeIds =
        (torch::arange(sequence, longs) >= sequence / 2).to(torch::kLong).expand({batch, sequence}).clone();
    const torch::Tensor labelled = torch::rand({batch, sequence}) < 0.15;
    b.mlmLabels = torch::where(labelled, b.inputIds, torch::full_like(b.inputIds, -100));
    b.sopLabels = torch::randint(0, 2, {batch}, longs);
    b.mlmPositions = labelled.sum().item<std::int64_t>();
    for (torch::Tensor* t : {&b.inputIds, &b.attentionMask, &b.tokenTypeIds, &b.mlmLabels, &b.sopLabels})
        *t = t->to(device);
    return b;
}

void benchConfig(const std::string& name, const Options& o, const torch::Device& device, double gemm) {
    const AlbertConfig config = AlbertConfig::named(name);
    const auto found = o.batch.find(name);
    const std::int64_t batchSize = found == o.batch.end() ? 8 : found->second;
    torch::manual_seed(0);
    sahaj::model::AlbertForPreTraining model(config);
    model->to(device);
    model->train();
    sahaj::train::Lamb optimizer(sahaj::train::ParameterGrouping::split(*model, 0.01), {});
    const std::vector<torch::Tensor> parameters = optimizer.parameters();
    const Batch batch = makeBatch(config, batchSize, o.sequence, device);

    double lossValue = 0;
    auto step = [&] {
        optimizer.zeroGrad();
        {
            sahaj::model::AutocastGuard autocast(device, o.precision);
            const auto output = model->forwardMasked(batch.inputIds, batch.attentionMask, batch.tokenTypeIds,
                                                     batch.mlmLabels);
            const auto loss = sahaj::model::PreTrainingLoss::compute(output, batch.sopLabels);
            loss.total.backward();
            lossValue = loss.total.item<double>();
        }
        sahaj::train::clipGradientNorm(parameters, 1.0);
        optimizer.step();
    };
    step(); // warm-up: allocations, kernel selection
    synchronize(device);
    const auto start = Clock::now();
    for (int i = 0; i < o.steps; ++i)
        step();
    synchronize(device);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count() / o.steps;

    const double flops =
        sahaj::bench::ModelFlops::training(config, batchSize, o.sequence, batch.mlmPositions);
    const double achieved = flops / seconds / 1e9;
    std::printf("%-10s params %6.2f M  batch %3lld x %lld  %7.3f s/step  %8.2f samples/s  %9.0f tokens/s  "
                "%8.1f GFLOP/s  MFU %.3f  (loss %.3f)\n",
                name.c_str(), model->parameterCount() / 1e6, static_cast<long long>(batchSize),
                static_cast<long long>(o.sequence), seconds, batchSize / seconds,
                batchSize * o.sequence / seconds, achieved, achieved / gemm, lossValue);

    // The desktop app's hardware check (forward + backward only, 128-token sequences) on the same model and
    // device: what a volunteer's wizard shows, against the full step measured above.
    const sahaj::model::TrainingSpeed probe = sahaj::model::TrainingSpeedProbe::measure(
        device.str(), static_cast<int>(batchSize), name, std::max(1, o.steps));
    if (probe.problem.empty())
        std::printf("%-10s hardware check (seq %ld): %8.2f samples/s, ratio to the full step %.3f%s\n",
                    name.c_str(), sahaj::model::TrainingSpeedProbe::kSequence, probe.samplesPerSecond,
                    probe.samplesPerSecond / (batchSize / seconds),
                    o.sequence == sahaj::model::TrainingSpeedProbe::kSequence ? ""
                                                                              : " (other sequence length)");
    else
        std::printf("%-10s hardware check failed: %s\n", name.c_str(), probe.problem.c_str());
}

} // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parse(argc, argv);
        if (o.device != "cpu" && !torch::cuda::is_available())
            throw std::invalid_argument("--device " + o.device +
                                        " requested but this libtorch sees no CUDA device");
        const torch::Device device(o.device);
        const bool half = device.is_cuda();
        const torch::ScalarType gemmType =
            !half
                ? torch::kFloat
                : (o.precision == sahaj::model::AutocastPrecision::Float16 ? torch::kHalf : torch::kBFloat16);
        const double gemm = gemmGflops(device, gemmType);
        std::printf("device %s, %d threads, libtorch %s; reference GEMM (%s): %.1f GFLOP/s\n",
                    o.device.c_str(), torch::get_num_threads(), TORCH_VERSION,
                    half ? "half precision" : "fp32", gemm);
        std::printf(
            "training step = forward + backward + clip + LAMB, seq %lld, best guess FLOPs = 3 x forward "
            "matrix products; MFU = achieved / GEMM\n",
            static_cast<long long>(o.sequence));
        for (const std::string& name : o.configs)
            benchConfig(name, o, device, gemm);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sahaj-bench-train: %s\n", e.what());
        return 1;
    }
}
