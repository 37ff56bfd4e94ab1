#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace sahaj::train {

// Scales all gradients together so that their global L2 norm is at most maxNorm, with the arithmetic of
// torch.nn.utils.clip_grad_norm_ (coefficient maxNorm / (norm + 1e-6), capped at 1). Returns the norm
// before clipping. Unlike torch, a non-finite norm leaves the gradients untouched (torch would turn them all
// into NaN or 0), so the caller can see the returned value and skip the step. Parameters without a gradient
// are ignored; with none at all the norm is 0.
double clipGradientNorm(const std::vector<at::Tensor>& parameters, double maxNorm);

} // namespace sahaj::train
