#include "core/engine/MallocPolicy.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sahaj::engine {

bool MallocPolicy::apply() {
#if defined(__GLIBC__)
    // A fixed threshold also turns off glibc's raising of it (mallopt's documented effect).
    return ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold)) == 1;
#else
    return false;
#endif
}

} // namespace sahaj::engine
