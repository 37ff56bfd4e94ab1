#include "core/eval/MaskedLmEvaluator.h"

#include "core/model/AlbertForPreTraining.h"
#include "core/model/AutocastGuard.h"
#include "core/model/PreTrainingLoss.h"
#include "core/model/BatchTensors.h"
#include "core/text/PretrainingExample.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sahaj::eval {

namespace {

std::string lineOf(const MaskedLmRecord& record) {
    return record.line > 0 ? "line " + std::to_string(record.line) : "record";
}

} // namespace

void MaskedLmEvaluator::checkRecords(const std::vector<MaskedLmRecord>& records,
                                     const model::AlbertConfig& config, const std::string& origin) {
    for (const MaskedLmRecord& record : records) {
        const auto fail = [&](const std::string& problem) {
            throw std::runtime_error((origin.empty() ? "" : origin + ": ") + lineOf(record) + ": " + problem);
        };
        if (static_cast<std::int64_t>(record.inputIds.size()) > config.maxPositionEmbeddings)
            fail("sequence of " + std::to_string(record.inputIds.size()) +
                 " tokens, longer than the model's " + std::to_string(config.maxPositionEmbeddings) +
                 " positions");
        for (std::size_t i = 0; i < record.inputIds.size(); ++i) {
            if (record.inputIds[i] >= config.vocabSize)
                fail("token id " + std::to_string(record.inputIds[i]) +
                     " outside the model's vocabulary of " + std::to_string(config.vocabSize));
            if (record.labels[i] >= config.vocabSize)
                fail("label " + std::to_string(record.labels[i]) + " outside the model's vocabulary of " +
                     std::to_string(config.vocabSize));
            if (record.tokenTypeIds[i] >= config.typeVocabSize)
                fail("token type " + std::to_string(record.tokenTypeIds[i]) + " outside the model's " +
                     std::to_string(config.typeVocabSize) + " types");
        }
    }
}

compute::TokenBatch MaskedLmEvaluator::collate(const std::vector<MaskedLmRecord>& records, std::size_t begin,
                                               std::size_t end, std::int64_t padId) {
    std::size_t longest = 0;
    for (std::size_t r = begin; r < end; ++r)
        longest = std::max(longest, records[r].inputIds.size());
    compute::TokenBatch batch = compute::TokenBatch::padded(static_cast<std::int64_t>(end - begin),
                                                            static_cast<std::int64_t>(longest), padId);
    const auto copyRow = [&](std::vector<std::int64_t>& target, std::int64_t row,
                             const std::vector<std::int64_t>& values) {
        std::copy(values.begin(), values.end(), target.begin() + batch.index(row, 0));
    };
    for (std::int64_t row = 0; row < batch.rows; ++row) {
        const MaskedLmRecord& record = records[begin + static_cast<std::size_t>(row)];
        copyRow(batch.inputIds, row, record.inputIds);
        copyRow(batch.attentionMask, row, record.attentionMask);
        copyRow(batch.tokenTypeIds, row, record.tokenTypeIds);
        copyRow(batch.mlmLabels, row, record.labels);
        batch.sopLabels[static_cast<std::size_t>(row)] = record.sentenceOrderLabel;
    }
    return batch;
}

MaskedLmScores MaskedLmEvaluator::evaluate(model::AlbertForPreTraining& model,
                                           const std::vector<MaskedLmRecord>& records, std::int64_t batchSize,
                                           c10::Device device, const std::string& origin) {
    if (batchSize < 1)
        throw std::invalid_argument("the evaluation batch size must be at least 1");
    checkRecords(records, model->config(), origin);
    const bool wasTraining = model->is_training();
    model->eval();
    const torch::NoGradGuard noGrad;
    const std::int64_t padId = model->config().padTokenId.value_or(0);

    MaskedLmScores scores;
    for (std::size_t begin = 0; begin < records.size(); begin += static_cast<std::size_t>(batchSize)) {
        const std::size_t end = std::min(records.size(), begin + static_cast<std::size_t>(batchSize));
        const model::BatchTensors batch = model::BatchTensors::of(collate(records, begin, end, padId), device);
        const model::AutocastGuard autocast(device, model::AutocastPrecision::BFloat16);
        const auto output =
            model->forwardMasked(batch.inputIds, batch.attentionMask, batch.tokenTypeIds, batch.mlmLabels);
        const model::PreTrainingLossValues values = model::PreTrainingLoss::compute(output, batch.sopLabels);
        if (values.mlmCount > 0)
            scores.mlmLossSum += values.mlmLoss.item<double>() * static_cast<double>(values.mlmCount);
        scores.mlmCount += values.mlmCount;
        scores.mlmCorrect += values.mlmCorrect;
        scores.sopLossSum += values.sopLoss.item<double>() * static_cast<double>(values.sopCount);
        scores.sopCorrect += values.sopCorrect;
        scores.examples += values.sopCount;
    }
    model->train(wasTraining);
    return scores;
}

} // namespace sahaj::eval
