#include "core/model/AutocastGuard.h"

#include <ATen/autocast_mode.h>
#include <torch/cuda.h>
#include <torch/version.h>

// libtorch 2.4 made the autocast state per device type and deprecated the CUDA-only functions.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define SAHAJ_AUTOCAST_PER_DEVICE 1
#endif

namespace sahaj::model {

namespace {

bool cudaAutocastEnabled() {
#ifdef SAHAJ_AUTOCAST_PER_DEVICE
    return at::autocast::is_autocast_enabled(at::kCUDA);
#else
    return at::autocast::is_enabled();
#endif
}

void setCudaAutocastEnabled(bool enabled) {
#ifdef SAHAJ_AUTOCAST_PER_DEVICE
    at::autocast::set_autocast_enabled(at::kCUDA, enabled);
#else
    at::autocast::set_enabled(enabled);
#endif
}

c10::ScalarType cudaAutocastDtype() {
#ifdef SAHAJ_AUTOCAST_PER_DEVICE
    return at::autocast::get_autocast_dtype(at::kCUDA);
#else
    return at::autocast::get_autocast_gpu_dtype();
#endif
}

void setCudaAutocastDtype(c10::ScalarType dtype) {
#ifdef SAHAJ_AUTOCAST_PER_DEVICE
    at::autocast::set_autocast_dtype(at::kCUDA, dtype);
#else
    at::autocast::set_autocast_gpu_dtype(dtype);
#endif
}

} // namespace

AutocastGuard::AutocastGuard(const c10::Device& device, AutocastPrecision precision) {
    if (!device.is_cuda() || !torch::cuda::is_available())
        return;
    previousEnabled_ = cudaAutocastEnabled();
    previousDtype_ = cudaAutocastDtype();
    setCudaAutocastEnabled(true);
    setCudaAutocastDtype(precision == AutocastPrecision::BFloat16 ? c10::ScalarType::BFloat16
                                                                  : c10::ScalarType::Half);
    at::autocast::increment_nesting();
    active_ = true;
}

AutocastGuard::~AutocastGuard() {
    if (!active_)
        return;
    // The outermost region drops the cache of fp16 weight copies, as torch.autocast's __exit__ does.
    if (at::autocast::decrement_nesting() == 0)
        at::autocast::clear_cache();
    setCudaAutocastEnabled(previousEnabled_);
    setCudaAutocastDtype(previousDtype_);
}

} // namespace sahaj::model
