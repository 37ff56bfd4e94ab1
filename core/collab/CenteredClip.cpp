#include "core/collab/CenteredClip.h"

#include "core/collab/CoordinateMedian.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace sahaj::collab {

namespace {

// Keeps the stopping rule meaningful for an estimate of norm 0 without giving it a scale of its own.
constexpr double kTiny = std::numeric_limits<double>::min();

[[noreturn]] void fail(const std::string& message) {
    throw std::invalid_argument("CenteredClip: " + message);
}

// std::to_string prints 1e-30 as 0.000000; the messages must show the value that was wrong.
std::string text(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

void checkInputs(const std::vector<const float*>& inputs, const std::vector<double>& weights,
                 std::size_t count) {
    if (inputs.empty())
        fail("no senders to aggregate");
    if (weights.size() != inputs.size())
        fail(std::to_string(inputs.size()) + " senders but " + std::to_string(weights.size()) +
             " weights; give one weight per sender");
    double total = 0.0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!std::isfinite(weights[i]) || weights[i] < 0.0)
            fail("sender " + std::to_string(i) + " has weight " + text(weights[i]) +
                 "; a weight must be a finite number >= 0");
        total += weights[i];
        if (count == 0)
            continue;
        if (inputs[i] == nullptr)
            fail("sender " + std::to_string(i) + " has no values (a null pointer for " +
                 std::to_string(count) + " values)");
        // The round rejects non-finite parts on arrival; one that slipped through would turn every
        // distance, hence every clipping factor, into NaN.
        const float* values = inputs[i];
        for (std::size_t j = 0; j < count; ++j)
            if (!std::isfinite(values[j]))
                fail("sender " + std::to_string(i) + " value " + std::to_string(j) + " is " +
                     text(values[j]) + "; every value must be finite");
    }
    if (!std::isfinite(total))
        fail("the weights sum to " + text(total) + ", too large to compute with");
}

double distance(const float* x, const std::vector<double>& v) {
    double sum = 0.0;
    for (std::size_t j = 0; j < v.size(); ++j) {
        const double d = static_cast<double>(x[j]) - v[j];
        sum += d * d;
    }
    return std::sqrt(sum);
}

} // namespace

void CenteredClip::validate(const CenteredClipOptions& options) {
    if (!std::isfinite(options.tau) || options.tau < 0.0)
        fail("tau is " + text(options.tau) +
             "; the clipping radius must be a finite number >= 0 (0: chosen from the inputs)");
    if (!std::isfinite(options.tauFactor) || options.tauFactor <= 0.0)
        fail("tauFactor is " + text(options.tauFactor) +
             "; it must be a finite number > 0 (for the plain median, set maxIterations to 0)");
    if (options.maxIterations < 0 || options.maxIterations > CenteredClipOptions::kMaxIterations)
        fail("maxIterations is " + std::to_string(options.maxIterations) + "; it must lie in 0.." +
             std::to_string(CenteredClipOptions::kMaxIterations));
    if (!std::isfinite(options.tolerance) || options.tolerance < 0.0)
        fail("tolerance is " + text(options.tolerance) + "; it must be a finite number >= 0");
}

CenteredClipResult CenteredClip::aggregate(const std::vector<const float*>& inputs,
                                           const std::vector<double>& weights, std::size_t count,
                                           const CenteredClipOptions& options) {
    validate(options);
    checkInputs(inputs, weights, count);

    // A sender of weight 0 would otherwise still move the median and the automatic τ.
    std::vector<const float*> senders;
    std::vector<double> senderWeights;
    double totalWeight = 0.0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (weights[i] > 0.0) {
            senders.push_back(inputs[i]);
            senderWeights.push_back(weights[i]);
            totalWeight += weights[i];
        }
    }
    if (senders.empty())
        senders = inputs; // nobody has weight: the median of everyone, as documented

    CenteredClipResult result;
    std::vector<double> v = coordinateMedian(senders, count);
    std::vector<double> distances(senders.size());
    for (std::size_t i = 0; i < senders.size(); ++i)
        distances[i] = distance(senders[i], v);
    if (options.tau > 0.0) {
        result.tau = options.tau;
    } else {
        std::vector<double> sorted = distances;
        result.tau = options.tauFactor * medianOf(sorted);
    }

    std::vector<double> step(count);
    for (int iteration = 0; totalWeight > 0.0 && iteration < options.maxIterations; ++iteration) {
        std::fill(step.begin(), step.end(), 0.0);
        result.clipped = 0;
        for (std::size_t i = 0; i < senders.size(); ++i) {
            double factor = senderWeights[i] / totalWeight;
            if (distances[i] > result.tau) {
                factor *= result.tau / distances[i];
                ++result.clipped;
            }
            const float* x = senders[i];
            for (std::size_t j = 0; j < count; ++j)
                step[j] += factor * (static_cast<double>(x[j]) - v[j]);
        }
        double stepSquared = 0.0;
        double estimateSquared = 0.0;
        for (std::size_t j = 0; j < count; ++j) {
            stepSquared += step[j] * step[j];
            estimateSquared += v[j] * v[j];
            v[j] += step[j];
        }
        ++result.iterations;
        if (std::sqrt(stepSquared) <= options.tolerance * (std::sqrt(estimateSquared) + kTiny))
            break;
        for (std::size_t i = 0; i < senders.size(); ++i)
            distances[i] = distance(senders[i], v);
    }

    result.values.resize(count);
    for (std::size_t j = 0; j < count; ++j)
        result.values[j] = static_cast<float>(v[j]);
    return result;
}

} // namespace sahaj::collab
