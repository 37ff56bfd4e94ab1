#include "core/eval/MaskedLmScores.h"

namespace sahaj::eval {

std::optional<double> MaskedLmScores::mlmLoss() const {
    if (mlmCount == 0)
        return std::nullopt;
    return mlmLossSum / static_cast<double>(mlmCount);
}

std::optional<double> MaskedLmScores::mlmAccuracy() const {
    if (mlmCount == 0)
        return std::nullopt;
    return static_cast<double>(mlmCorrect) / static_cast<double>(mlmCount);
}

double MaskedLmScores::sopLoss() const {
    return examples ? sopLossSum / static_cast<double>(examples) : 0.0;
}

double MaskedLmScores::sopAccuracy() const {
    return examples ? static_cast<double>(sopCorrect) / static_cast<double>(examples) : 0.0;
}

QJsonObject MaskedLmScores::toJson() const {
    const auto orNull = [](const std::optional<double>& value) {
        return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
    };
    return QJsonObject{
        {"mlm_loss", orNull(mlmLoss())},
        {"sop_loss", sopLoss()},
        {"mlm_accuracy", orNull(mlmAccuracy())},
        {"sop_accuracy", sopAccuracy()},
        {"examples", static_cast<qint64>(examples)},
        {"scored_tokens", static_cast<qint64>(mlmCount)},
    };
}

} // namespace sahaj::eval
