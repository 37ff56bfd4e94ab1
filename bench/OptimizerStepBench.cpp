// The optimiser step every peer applies after each round, in the engine's plain C++ (optim::FlatLamb and
// clipFlatGradient over the flat fp32 vector, bit-identical on every CPU), against the same step through
// ATen's kernels (train::Lamb and clipGradientNorm over the model's tensors, which differ by CPU) on the
// same parameters, measured in the same run. Also the step's memory traffic against the time it takes:
// a step reads the parameters, gradient and both moments and writes three of them (28 bytes per value).
//
// Usage: sahaj-bench-optimizer-step [--config sahajbert|tiny|...] [--threads N]
#include "core/model/AlbertConfig.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/optim/FlatGradientClipping.h"
#include "core/optim/FlatLamb.h"
#include "core/train/GradientClipping.h"
#include "core/train/Lamb.h"
#include "core/train/ParameterGrouping.h"

#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

using namespace sahaj;

namespace {

// Best of `runs` calls, in milliseconds.
double bestMilliseconds(int runs, const std::function<void()>& call) {
    double best = 1e30;
    for (int run = 0; run < runs; ++run) {
        const auto start = std::chrono::steady_clock::now();
        call();
        best = std::min(
            best,
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    std::string configName = "sahajbert";
    int threads = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--config") == 0)
            configName = argv[i + 1];
        else if (std::strcmp(argv[i], "--threads") == 0)
            threads = std::max(1, std::atoi(argv[i + 1]));
    }
    // The engine steps on its training thread alone; ATen gets the same one thread unless asked.
    at::set_num_threads(threads);
    torch::manual_seed(0);
    model::AlbertForPreTraining model(model::AlbertConfig::named(configName));
    const optim::LambOptions options;

    // The flat layout of the engine's replica.
    std::vector<optim::ParameterSegment> segments;
    std::vector<float> parameters;
    for (const auto& item : model->named_parameters()) {
        const at::Tensor values = item.value().detach().contiguous();
        const auto count = static_cast<std::size_t>(values.numel());
        segments.push_back(
            {item.key(), parameters.size(), count,
             train::ParameterGrouping::excludedFromWeightDecay(item.key()) ? 0.0 : options.weightDecay});
        parameters.insert(parameters.end(), values.data_ptr<float>(), values.data_ptr<float>() + count);
    }
    const at::Tensor gradientTensor = torch::randn({static_cast<std::int64_t>(parameters.size())}) * 1e-3;
    const std::vector<float> gradient(gradientTensor.data_ptr<float>(),
                                      gradientTensor.data_ptr<float>() + parameters.size());

    optim::FlatLamb flat(segments, options);
    std::vector<float> scratch(gradient.size());
    const double flatMs = bestMilliseconds(5, [&] {
        scratch = gradient;
        optim::clipFlatGradient(scratch, 1.0);
        flat.step(parameters, scratch);
    });

    train::Lamb lamb(train::ParameterGrouping::split(*model, options.weightDecay), options);
    const std::vector<at::Tensor> tensors = lamb.parameters();
    const double atenMs = bestMilliseconds(5, [&] {
        std::int64_t offset = 0;
        for (const at::Tensor& tensor : tensors) {
            tensor.mutable_grad() =
                gradientTensor.narrow(0, offset, tensor.numel()).view(tensor.sizes()).clone();
            offset += tensor.numel();
        }
        train::clipGradientNorm(tensors, 1.0);
        lamb.step();
    });

    const double bytes = 28.0 * static_cast<double>(parameters.size());
    std::printf("config %s: %zu parameters, %d thread(s)\n", configName.c_str(), parameters.size(), threads);
    std::printf("flat step (plain C++, bit-identical): %.1f ms, %.2f GB/s of step traffic\n", flatMs,
                bytes / flatMs / 1e6);
    std::printf(
        "ATen step (train::Lamb, CPU-dependent): %.1f ms (includes copying the gradient into .grad)\n",
        atenMs);
    std::printf("ratio flat / ATen: %.2f\n", flatMs / atenMs);
    return 0;
}
