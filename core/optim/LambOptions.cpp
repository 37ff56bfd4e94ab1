#include "core/optim/LambOptions.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sahaj::optim {

namespace {

void require(bool ok, const char* what, double value) {
    if (!ok)
        throw std::invalid_argument(std::string("LAMB: invalid ") + what + ": " + std::to_string(value));
}

} // namespace

void LambOptions::validate() const {
    // std::isfinite first so that NaN never passes a comparison by accident.
    require(std::isfinite(learningRate) && learningRate >= 0.0, "learning rate", learningRate);
    require(std::isfinite(beta1) && beta1 >= 0.0 && beta1 < 1.0, "beta1 (must be in [0, 1))", beta1);
    require(std::isfinite(beta2) && beta2 >= 0.0 && beta2 < 1.0, "beta2 (must be in [0, 1))", beta2);
    require(std::isfinite(eps) && eps >= 0.0, "eps", eps);
    require(std::isfinite(weightDecay) && weightDecay >= 0.0, "weight decay", weightDecay);
    require(!std::isnan(clampValue) && clampValue >= 0.0, "clamp value", clampValue);
}

} // namespace sahaj::optim
