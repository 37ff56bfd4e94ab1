#pragma once

#include <cstdint>

namespace sahaj::collab {

// fp32 ⇄ IEEE fp16 for the wire, rounding to nearest even. Where the CPU has F16C (x86-64 since 2012)
// eight values convert per instruction; elsewhere portable code on the bits runs (no libtorch: the
// engine's arithmetic is plain C++). Both paths give identical bits for every number, and NaN for NaN (its
// payload may differ; every receiver refuses NaN anyway), as tst_half_conversion checks, so peers on
// different CPUs still end with bit-identical averages. A round moves tens of millions of values through
// these loops, several peers share a CPU in tests and benchmarks, and the portable code costs a few
// nanoseconds per value.
//
// The halves are bytes (two per value, little-endian as the wire has them) at any address: a frame libzmq
// received may start at an odd one, where reading a std::uint16_t would be undefined behaviour
// (UndefinedBehaviorSanitizer caught it in the all-reduce's tests).
class HalfConversion {
public:
    // Saturates to ±65504 instead of overflowing to infinity, which every receiver would reject.
    static void toHalves(const float* values, std::int64_t count, void* out);
    static void toFloats(const void* halves, std::int64_t count, float* out);

    // The portable path alone, for tests that compare the two.
    static void toHalvesPortable(const float* values, std::int64_t count, void* out);
    static void toFloatsPortable(const void* halves, std::int64_t count, float* out);
    // Whether toHalves/toFloats use F16C on this CPU.
    static bool usesF16c();
};

} // namespace sahaj::collab
