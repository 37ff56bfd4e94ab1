#include "core/run/TrainingSettings.h"

#include <tuple>

namespace sahaj::run {

QString TrainingSettings::wireDtypeName(WireDtype dtype) {
    return dtype == WireDtype::Int8 ? QStringLiteral("int8") : QStringLiteral("fp16");
}

std::optional<WireDtype> TrainingSettings::wireDtypeFromName(const QString& name) {
    if (name == QLatin1String("fp16"))
        return WireDtype::Fp16;
    if (name == QLatin1String("int8"))
        return WireDtype::Int8;
    return std::nullopt;
}

QString TrainingSettings::aggregationName(Aggregation aggregation) {
    return aggregation == Aggregation::CenteredClip ? QStringLiteral("centered_clip")
                                                    : QStringLiteral("mean");
}

std::optional<Aggregation> TrainingSettings::aggregationFromName(const QString& name) {
    if (name == QLatin1String("mean"))
        return Aggregation::Mean;
    if (name == QLatin1String("centered_clip"))
        return Aggregation::CenteredClip;
    return std::nullopt;
}

bool TrainingSettings::operator==(const TrainingSettings& other) const {
    const auto fields = [](const TrainingSettings& s) {
        const optim::LambOptions& l = s.lamb;
        return std::tie(s.targetBatchSize, s.sequenceLength, s.mlmProbability, s.documents, l.learningRate,
                        l.beta1, l.beta2, l.eps, l.weightDecay, l.clampValue, l.debias, l.adam, s.warmupSteps,
                        s.totalSteps, s.clipNorm, s.maxEpochs, s.parameterAveragingEvery, s.wireDtype,
                        s.aggregation, s.centeredClipTauFactor, s.centeredClipIterations, s.delayedUpdates);
    };
    return fields(*this) == fields(other);
}

} // namespace sahaj::run
