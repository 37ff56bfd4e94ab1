#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

namespace sahaj::model {

enum class AutocastPrecision { Float16, BFloat16 };

// Turns on CUDA autocast (matrix products in fp16 or bf16, reductions and normalisations in fp32) for its
// lifetime and restores the previous state after, like `with torch.autocast("cuda", dtype)`. A no-op
// unless the device is CUDA and the libtorch in use has CUDA: CPU training stays in fp32, where Debian's
// libtorch has no fast half-precision kernels.
class AutocastGuard {
public:
    AutocastGuard(const c10::Device& device, AutocastPrecision precision);
    ~AutocastGuard();
    AutocastGuard(const AutocastGuard&) = delete;
    AutocastGuard& operator=(const AutocastGuard&) = delete;

    bool active() const { return active_; }

private:
    bool active_ = false;
    bool previousEnabled_ = false;
    c10::ScalarType previousDtype_ = c10::ScalarType::Half;
};

} // namespace sahaj::model
