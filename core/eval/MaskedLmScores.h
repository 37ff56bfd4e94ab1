#pragma once

#include <QJsonObject>

#include <cstdint>
#include <optional>

namespace sahaj::eval {

// The masked-LM and sentence-order figures of a whole evaluation set, as Hugging Face's
// AlbertForPreTraining defines its losses: the MLM loss is the mean cross entropy over every scored
// position of the set (not a mean of per-batch means), the SOP loss the mean over examples.
struct MaskedLmScores {
    double mlmLossSum = 0.0; // summed over scored positions
    std::int64_t mlmCount = 0;
    std::int64_t mlmCorrect = 0;
    double sopLossSum = 0.0; // summed over examples
    std::int64_t sopCorrect = 0;
    std::int64_t examples = 0;

    // nullopt when the set has no scored position (the mean does not exist).
    std::optional<double> mlmLoss() const;
    std::optional<double> mlmAccuracy() const;
    double sopLoss() const;
    double sopAccuracy() const;

    // {"mlm_loss", "sop_loss", "mlm_accuracy", "sop_accuracy", "examples", "scored_tokens"}; a missing
    // mean is null.
    QJsonObject toJson() const;
};

} // namespace sahaj::eval
