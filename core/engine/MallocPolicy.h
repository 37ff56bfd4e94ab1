#pragma once

#include <cstddef>

namespace sahaj::engine {

// How an engine process (a volunteer, the coordinator, the desktop app) asks glibc's malloc to keep its
// memory: blocks of kMmapThreshold bytes and more get pages of their own, given back to the system when
// freed. glibc's default raises that threshold to the largest block freed so far (up to 32 MiB on 64-bit),
// after which the engine's large transient buffers (a round's parts, a state being encoded or served) come
// from the heap arenas, where freed memory stays resident. docs/soak.md ("Memory") has the measurement that
// chose it. Compute cores keep glibc's default: the model's tensors are allocated and freed at every
// micro-batch, and pages of their own each time would cost page faults there. Call it first in main().
class MallocPolicy {
public:
    static constexpr std::size_t kMmapThreshold = 128 * 1024;

    // True where it took effect (glibc); elsewhere the allocator's own policy stays.
    static bool apply();
};

} // namespace sahaj::engine
