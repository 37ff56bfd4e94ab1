#pragma once

#include <span>

namespace sahaj::optim {

// Scales the whole flat gradient so that its L2 norm is at most maxNorm, with the arithmetic of
// torch.nn.utils.clip_grad_norm_ (coefficient maxNorm / (norm + 1e-6), capped at 1), and returns the norm
// before clipping. The norm is DeterministicMath's fixed-order sum, so every peer clips the same averaged
// gradient to the same bits. A non-finite norm leaves the gradient untouched, so that the caller can skip
// the step. Throws std::invalid_argument unless maxNorm is positive and finite.
double clipFlatGradient(std::span<float> gradient, double maxNorm);

} // namespace sahaj::optim
