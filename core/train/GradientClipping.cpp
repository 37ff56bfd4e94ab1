#include "core/train/GradientClipping.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace sahaj::train {

double clipGradientNorm(const std::vector<at::Tensor>& parameters, double maxNorm) {
    if (!(maxNorm > 0.0) || !std::isfinite(maxNorm))
        throw std::invalid_argument("gradient clipping: max norm must be positive, got " +
                                    std::to_string(maxNorm));
    c10::NoGradGuard noGrad;
    std::vector<at::Tensor> norms;
    std::vector<at::Tensor> grads;
    for (const auto& parameter : parameters) {
        const at::Tensor& grad = parameter.grad();
        if (!grad.defined())
            continue;
        grads.push_back(grad);
        norms.push_back(grad.norm(2));
    }
    if (grads.empty())
        return 0.0;
    const at::Tensor total = norms.size() == 1 ? norms.front() : at::stack(norms).norm(2);
    const double totalNorm = total.item<double>();
    if (!std::isfinite(totalNorm))
        return totalNorm;
    const double coefficient = maxNorm / (totalNorm + 1e-6);
    if (coefficient < 1.0) {
        for (auto& grad : grads)
            grad.mul_(coefficient);
    }
    return totalNorm;
}

} // namespace sahaj::train
