#include "core/eval/FillMask.h"

#include "core/model/AlbertForPreTraining.h"
#include "core/text/Tokenizer.h"

#include <QJsonArray>

#include <torch/torch.h>

#include <stdexcept>

namespace sahaj::eval {

std::vector<FillMaskPrediction> FillMask::predict(model::AlbertForPreTraining& model,
                                                  const text::Tokenizer& tokenizer, const QString& text,
                                                  int top, c10::Device device) {
    if (top < 1)
        throw std::invalid_argument("the number of candidates must be at least 1");
    const int maskId = tokenizer.maskId();
    if (maskId < 0)
        throw std::invalid_argument("the tokenizer has no [MASK] token");
    const std::vector<int> ids = tokenizer.encode(text).ids;
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == maskId)
            positions.push_back(static_cast<std::int64_t>(i));
    if (positions.empty())
        throw std::invalid_argument("the text has no [MASK] to fill");
    const auto length = static_cast<std::int64_t>(ids.size());
    if (length > model->config().maxPositionEmbeddings)
        throw std::invalid_argument("the text encodes to " + std::to_string(length) +
                                    " tokens, more than the model's " +
                                    std::to_string(model->config().maxPositionEmbeddings) + " positions");

    const bool wasTraining = model->is_training();
    model->eval();
    const torch::NoGradGuard noGrad;
    const at::Tensor inputIds = torch::tensor(std::vector<std::int64_t>(ids.begin(), ids.end()), torch::kLong)
                                    .unsqueeze(0)
                                    .to(device);
    const at::Tensor ones = torch::ones({1, length}, torch::kLong).to(device);
    const at::Tensor types = torch::zeros({1, length}, torch::kLong).to(device);
    const at::Tensor logits =
        model->forward(inputIds, ones, types).mlmLogits[0].to(torch::kCPU, torch::kFloat);
    model->train(wasTraining);

    // Only ids the tokenizer can write are candidates: a model's vocabulary may be larger than its
    // tokenizer's (the tiny configuration keeps sahajBERT's 32,000 rows for any tokenizer), and its rows
    // past the tokenizer's pieces have no text.
    const std::int64_t candidates = std::min<std::int64_t>(logits.size(1), tokenizer.vocabSize());
    const int k = static_cast<int>(std::min<std::int64_t>(top, candidates));
    std::vector<FillMaskPrediction> predictions;
    for (const std::int64_t position : positions) {
        const at::Tensor probabilities = logits[position].slice(0, 0, candidates).softmax(0);
        const auto [values, indices] = probabilities.topk(k);
        FillMaskPrediction prediction{position, {}};
        for (int c = 0; c < k; ++c) {
            FillMaskCandidate candidate;
            candidate.tokenId = indices[c].item<std::int64_t>();
            candidate.probability = values[c].item<double>();
            candidate.token = tokenizer.idToToken(static_cast<int>(candidate.tokenId));
            candidate.text = tokenizer.decode({static_cast<int>(candidate.tokenId)}, false);
            std::vector<int> filled = ids;
            filled[static_cast<std::size_t>(position)] = static_cast<int>(candidate.tokenId);
            candidate.sequence = tokenizer.decode(filled, true);
            prediction.candidates.push_back(std::move(candidate));
        }
        predictions.push_back(std::move(prediction));
    }
    return predictions;
}

QJsonObject FillMask::toJson(const QString& text, const std::vector<FillMaskPrediction>& predictions) {
    QJsonArray masks;
    for (const FillMaskPrediction& prediction : predictions) {
        QJsonArray candidates;
        for (const FillMaskCandidate& candidate : prediction.candidates)
            candidates.append(QJsonObject{
                {"token_id", static_cast<qint64>(candidate.tokenId)},
                {"token", candidate.token},
                {"token_str", candidate.text},
                {"score", candidate.probability},
                {"sequence", candidate.sequence},
            });
        masks.append(
            QJsonObject{{"position", static_cast<qint64>(prediction.position)}, {"predictions", candidates}});
    }
    return QJsonObject{{"text", text}, {"masks", masks}};
}

} // namespace sahaj::eval
