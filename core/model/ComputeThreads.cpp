#include "core/model/ComputeThreads.h"

#include <ATen/Parallel.h>

#include <dlfcn.h>

namespace sahaj::model {

void setComputeThreads(int threads) {
    if (threads <= 0)
        return;
    at::set_num_threads(threads);
    // Looked up, not linked: libblas.so.3 is whichever BLAS the system chose (Debian's alternatives), and
    // only OpenBLAS has a pool of its own to limit.
    using SetThreads = void (*)(int);
    if (auto* openblas = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        openblas(threads);
}

} // namespace sahaj::model
