#include "core/optim/FlatGradientClipping.h"

#include "core/optim/DeterministicMath.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sahaj::optim {

double clipFlatGradient(std::span<float> gradient, double maxNorm) {
    if (!(maxNorm > 0.0) || !std::isfinite(maxNorm))
        throw std::invalid_argument("gradient clipping: max norm must be positive, got " +
                                    std::to_string(maxNorm));
    const double norm = std::sqrt(DeterministicMath::sumOfSquares(gradient.data(), gradient.size()));
    if (!std::isfinite(norm))
        return norm;
    const double coefficient = maxNorm / (norm + 1e-6);
    if (coefficient < 1.0) {
        const auto scale = static_cast<float>(coefficient);
        for (float& value : gradient)
            value = value * scale;
    }
    return norm;
}

} // namespace sahaj::optim
