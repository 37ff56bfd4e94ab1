#include "core/engine/GradientAccumulator.h"

#include "core/engine/ModelReplica.h"
#include "core/text/Tokenizer.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace sahaj::engine {

GradientAccumulator::GradientAccumulator(AccumulatorOptions options,
                                         std::vector<std::unique_ptr<CoreSupervisor>> cores,
                                         std::int64_t parameterCount)
    : options_(std::move(options)), cores_(std::move(cores)),
      sum_(static_cast<std::size_t>(parameterCount), 0.0f) {
    if (cores_.empty())
        throw std::invalid_argument("a gradient accumulator needs a compute core");
    tokenizer_ = std::make_unique<text::Tokenizer>(text::Tokenizer::fromFile(options_.tokenizerPath));
    text::PretrainingStreamOptions streamOptions;
    streamOptions.corpus.documents = options_.documents;
    streamOptions.mlmProbability = options_.mlmProbability;
    stream_ =
        std::make_unique<text::PretrainingStream>(options_.corpusPath, *tokenizer_, options_.sequenceLength,
                                                  options_.microBatchSize, options_.seed, streamOptions);
}

GradientAccumulator::~GradientAccumulator() = default;

std::int64_t GradientAccumulator::accumulate(const ModelReplica& replica) {
    lastComputeSeconds_ = 0.0;
    std::vector<CoreSupervisor*> working;
    for (const std::unique_ptr<CoreSupervisor>& core : cores_)
        // A failed core waits for its restart: no batch is drawn for it meanwhile.
        if (core->ready() && core->submit(stream_->next(), replica.parameters(), replica.generation()))
            working.push_back(core.get());
    if (working.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return 0;
    }
    std::int64_t added = 0;
    for (CoreSupervisor* core : working) { // in a fixed order: the sum's bits do not depend on timing
        const std::optional<ComputeCore::Result> result = core->collect(sum_);
        if (!result)
            continue;
        lastComputeSeconds_ = std::max(lastComputeSeconds_, result->wallSeconds);
        samples_ += result->samples;
        tokens_ += result->tokens;
        lossSum_ += result->loss * static_cast<double>(result->samples);
        added += result->samples;
    }
    return added;
}

std::vector<std::string> GradientAccumulator::takeMessages() {
    std::vector<std::string> messages;
    for (const std::unique_ptr<CoreSupervisor>& core : cores_)
        for (std::string& message : core->takeMessages())
            messages.push_back(std::move(message));
    return messages;
}

std::vector<float> GradientAccumulator::gradientVector(double lossOffset) const {
    std::vector<float> flat(sum_.size() + 1, 0.0f);
    if (samples_ == 0)
        return flat;
    const double scale = 1.0 / static_cast<double>(samples_);
    // fp32 times the fp64 scale rounded to fp32, as torch's grad * scale computed it
    const auto factor = static_cast<float>(scale);
    std::transform(sum_.begin(), sum_.end(), flat.begin(), [factor](float value) { return value * factor; });
    flat.back() = static_cast<float>(meanLoss() - lossOffset);
    return flat;
}

void GradientAccumulator::setMicroBatchSize(int samples) {
    stream_->setBatchSize(samples);
}

int GradientAccumulator::microBatchSize() const {
    return stream_->batchSize();
}

void GradientAccumulator::reset() {
    std::fill(sum_.begin(), sum_.end(), 0.0f);
    samples_ = 0;
    tokens_ = 0;
    lossSum_ = 0.0;
}

} // namespace sahaj::engine
