#include "core/engine/GradientAccumulator.h"

#include "core/engine/ModelReplica.h"
#include "core/model/AlbertForPreTraining.h"
#include "core/model/AutocastGuard.h"
#include "core/model/BatchTensors.h"
#include "core/model/PreTrainingLoss.h"
#include "core/text/Tokenizer.h"

#include <torch/torch.h>

namespace sahaj::engine {

GradientAccumulator::GradientAccumulator(AccumulatorOptions options) : options_(std::move(options)) {
    tokenizer_ = std::make_unique<text::Tokenizer>(text::Tokenizer::fromFile(options_.tokenizerPath));
    text::PretrainingStreamOptions streamOptions;
    streamOptions.corpus.documents = options_.documents;
    streamOptions.mlmProbability = options_.mlmProbability;
    stream_ =
        std::make_unique<text::PretrainingStream>(options_.corpusPath, *tokenizer_, options_.sequenceLength,
                                                  options_.microBatchSize, options_.seed, streamOptions);
}

GradientAccumulator::~GradientAccumulator() = default;

std::int64_t GradientAccumulator::accumulate(ModelReplica& replica) {
    const compute::TokenBatch batch = stream_->next();
    const c10::Device device = replica.device();
    const std::int64_t samples = batch.rows;
    const model::BatchTensors tensors = model::BatchTensors::of(batch, device);
    model::PreTrainingLossValues values;
    {
        const model::AutocastGuard autocast(device, model::AutocastPrecision::BFloat16);
        const auto output = replica.model()->forwardMasked(tensors.inputIds, tensors.attentionMask,
                                                           tensors.tokenTypeIds, tensors.mlmLabels);
        values = model::PreTrainingLoss::compute(output, tensors.sopLabels);
    }
    at::Tensor loss = values.sopLoss;
    if (values.mlmCount > 0)
        loss = loss + values.mlmLoss;
    (loss * static_cast<double>(samples)).backward();
    samples_ += samples;
    tokens_ += batch.tokens();
    lossSum_ += loss.item<double>() * static_cast<double>(samples);
    return samples;
}

void GradientAccumulator::setMicroBatchSize(int samples) {
    stream_->setBatchSize(samples);
}

int GradientAccumulator::microBatchSize() const {
    return stream_->batchSize();
}

void GradientAccumulator::reset() {
    samples_ = 0;
    tokens_ = 0;
    lossSum_ = 0.0;
}

} // namespace sahaj::engine
