#include "core/model/TrainingSpeedProbe.h"

#include "core/model/AlbertConfig.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/AutocastGuard.h"
#include "core/model/PreTrainingLoss.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>

namespace sahaj::model {

namespace {

using Clock = std::chrono::steady_clock;

void synchronize(const torch::Device& device) {
    if (device.is_cuda())
        torch::cuda::synchronize(device.index());
}

} // namespace

std::vector<std::string> TrainingSpeedProbe::devices() {
    std::vector<std::string> names{"cpu"};
    for (std::size_t i = 0; i < torch::cuda::device_count(); ++i)
        names.push_back("cuda:" + std::to_string(i));
    return names;
}

TrainingSpeed TrainingSpeedProbe::measure(const std::string& deviceName, int microBatch,
                                          const std::string& modelName, int maxBatches,
                                          double budgetSeconds) {
    TrainingSpeed result;
    try {
        result.devices = devices();
        const std::string name = deviceName == "cuda" ? "cuda:0" : deviceName;
        if (std::find(result.devices.begin(), result.devices.end(), name) == result.devices.end())
            throw std::invalid_argument("no device '" + deviceName + "' on this machine");
        if (microBatch < 1)
            throw std::invalid_argument("the micro-batch must hold at least one sample");
        const torch::Device device(name);
        const AlbertConfig config = AlbertConfig::named(modelName);
        AlbertForPreTraining albert(config);
        albert->to(device);
        albert->train();
        const auto longs = torch::TensorOptions().dtype(torch::kLong).device(device);
        const torch::Tensor ids = torch::randint(5, config.vocabSize, {microBatch, kSequence}, longs);
        const torch::Tensor mask = torch::ones({microBatch, kSequence}, longs);
        const torch::Tensor types = torch::zeros({microBatch, kSequence}, longs);
        const torch::Tensor labelled =
            torch::rand({microBatch, kSequence}, torch::TensorOptions().device(device)) < 0.15;
        const torch::Tensor labels = torch::where(labelled, ids, torch::full_like(ids, -100));
        const torch::Tensor sop = torch::randint(0, 2, {microBatch}, longs);
        const auto pass = [&] {
            {
                const AutocastGuard autocast(device, AutocastPrecision::BFloat16);
                const auto output = albert->forwardMasked(ids, mask, types, labels);
                PreTrainingLoss::compute(output, sop).total.backward();
            }
            albert->zero_grad();
        };
        pass(); // warm-up: allocations, kernel selection
        synchronize(device);
        const auto start = Clock::now();
        while (result.batches < std::max(1, maxBatches) &&
               (result.batches == 0 ||
                std::chrono::duration<double>(Clock::now() - start).count() < budgetSeconds)) {
            pass();
            ++result.batches;
        }
        synchronize(device);
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        result.samplesPerSecond = result.seconds > 0 ? result.batches * microBatch / result.seconds : 0.0;
    } catch (const std::exception& e) {
        result.problem = e.what();
        result.samplesPerSecond = 0.0;
    }
    return result;
}

} // namespace sahaj::model
