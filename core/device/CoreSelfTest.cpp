#include "core/device/CoreSelfTest.h"

#include "core/device/GradientComputer.h"
#include "core/model/AlbertParameterLayout.h"

#include <nlohmann/json.hpp>
#include <torch/cuda.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace sahaj::device {

namespace {

compute::TokenBatch randomBatch(const model::AlbertConfig& config, int rows, int width,
                                std::mt19937_64& random) {
    compute::TokenBatch batch = compute::TokenBatch::padded(rows, width, config.padTokenId.value_or(0));
    std::uniform_int_distribution<std::int64_t> token(5, config.vocabSize - 1);
    for (std::int64_t i = 0; i < batch.rows * batch.width; ++i) {
        batch.inputIds[static_cast<std::size_t>(i)] = token(random);
        batch.attentionMask[static_cast<std::size_t>(i)] = 1;
        if (i % 7 == 0)
            batch.mlmLabels[static_cast<std::size_t>(i)] = token(random);
    }
    for (std::int64_t row = 0; row < batch.rows; ++row)
        batch.sopLabels[static_cast<std::size_t>(row)] = row % 2;
    return batch;
}

} // namespace

std::string CoreSelfTest::run(const CoreSelfTestOptions& options) {
    const c10::Device device(options.device);
    GradientComputer computer(options.config, device);
    // The run's own initial values, so that the loss is that of an untrained model (about ln V + ln 2).
    const std::vector<float> parameters =
        model::AlbertParameterLayout::initialValues(model::AlbertParameterLayout::of(options.config), 1);
    computer.loadParameters(parameters);
    std::vector<float> gradient(parameters.size());
    std::mt19937_64 random(1);
    const int width = static_cast<int>(
        std::min<std::int64_t>(options.sequenceLength, options.config.maxPositionEmbeddings));
    computer.compute(randomBatch(options.config, options.microBatch, width, random), gradient); // warm-up
    double seconds = 0.0;
    double loss = 0.0;
    int timed = 0;
    for (int step = 0; step < options.steps && (step == 0 || seconds < options.seconds); ++step) {
        const GradientComputer::Result result =
            computer.compute(randomBatch(options.config, options.microBatch, width, random), gradient);
        seconds += result.seconds;
        loss = result.loss;
        ++timed;
    }
    if (!std::isfinite(loss))
        throw std::runtime_error("the self-test's loss is not finite on " + computer.deviceName());
    std::vector<std::string> devices{"cpu"};
    for (std::size_t i = 0; i < torch::cuda::device_count(); ++i)
        devices.push_back("cuda:" + std::to_string(i));
    const nlohmann::json report = {
        {"ok", true},
        {"device", computer.deviceName()},
        {"devices", devices},
        {"micro_batch", options.microBatch},
        {"samples_per_second", seconds > 0.0 ? options.microBatch * timed / seconds : 0.0},
        {"loss", loss}};
    return report.dump();
}

} // namespace sahaj::device
