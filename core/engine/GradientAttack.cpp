#include "core/engine/GradientAttack.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace sahaj::engine {

std::optional<GradientAttack::Kind> GradientAttack::fromName(const QString& name) {
    if (name == QLatin1String("none"))
        return Kind::None;
    if (name == QLatin1String("negate"))
        return Kind::Negate;
    if (name == QLatin1String("random"))
        return Kind::Random;
    if (name == QLatin1String("negative-moments"))
        return Kind::NegativeMoments;
    if (name == QLatin1String("heavy-state"))
        return Kind::HeavyState;
    if (name == QLatin1String("inflated-samples"))
        return Kind::InflatedSamples;
    if (name == QLatin1String("always-ready"))
        return Kind::AlwaysReady;
    if (name == QLatin1String("future-epoch"))
        return Kind::FutureEpoch;
    if (name == QLatin1String("equivocate"))
        return Kind::Equivocate;
    if (name == QLatin1String("wrong-mean"))
        return Kind::WrongMean;
    if (name == QLatin1String("split-plans"))
        return Kind::SplitPlans;
    if (name == QLatin1String("fake-state"))
        return Kind::FakeState;
    return std::nullopt;
}

QString GradientAttack::names() {
    return QStringLiteral(
        "none, negate, random, negative-moments, heavy-state, inflated-samples, always-ready, "
        "future-epoch, equivocate, wrong-mean, split-plans or fake-state");
}

void GradientAttack::alterReply(std::size_t member, float* values, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i)
        values[i] += static_cast<float>(member + 1);
}

void GradientAttack::alterEveryReply(std::size_t, float* values, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i)
        values[i] = static_cast<float>(-kScale * values[i]);
}

void GradientAttack::apply(Kind kind, std::vector<float>& vector, std::uint64_t seed) {
    if (kind != Kind::Negate && kind != Kind::Random)
        return;
    if (vector.empty())
        return;
    if (kind == Kind::Negate) {
        for (float& value : vector)
            value = static_cast<float>(-kScale * value);
        return;
    }
    double norm = 0.0;
    for (const float value : vector)
        norm += static_cast<double>(value) * value;
    norm = std::sqrt(norm);
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal;
    std::vector<double> direction(vector.size());
    double length = 0.0;
    for (double& value : direction) {
        value = normal(random);
        length += value * value;
    }
    const double scale = kScale * norm / std::sqrt(length);
    for (std::size_t i = 0; i < vector.size(); ++i)
        vector[i] = static_cast<float>(direction[i] * scale);
}

void GradientAttack::applyToState(Kind kind, std::vector<float>& state, std::int64_t parameterCount) {
    if ((kind != Kind::NegativeMoments && kind != Kind::HeavyState) || parameterCount <= 0 ||
        state.size() != static_cast<std::size_t>(3 * parameterCount))
        return;
    if (kind == Kind::HeavyState)
        std::fill(state.begin(), state.begin() + parameterCount, 0.5f);
    else
        std::fill(state.begin() + 2 * parameterCount, state.end(), -1e30f);
}

void GradientAttack::forgeState(collab::TrainingState& state) {
    for (auto& [name, array] : state.parameters) {
        const std::vector<float> half(static_cast<std::size_t>(array.elements()), 0.5f);
        array = array::HostArray::ofFloats(array.shape, half.data());
    }
    ++state.epoch;
}

} // namespace sahaj::engine
