#pragma once

#include "core/optim/InitialValueRule.h"

#include <cstdint>
#include <span>
#include <string>

namespace sahaj::optim {

// Draws a parameter's initial values by its rule, from the run's seed and the parameter's name, in plain
// C++: the same bits on every CPU. Every peer of a run must start from identical parameters, and torch's
// normal_ does not give them: its vectorised kernel (AVX2, AVX-512) and its scalar one draw different
// values from the same seed (docs/training.md, "bit-identical steps"). Normal values come from the polar
// method over a splitmix64 stream keyed by (seed, name), with DeterministicMath's logarithm.
class ParameterInitializer {
public:
    // Throws std::invalid_argument for a zero row outside the values or a negative or non-finite std.
    static void fill(std::span<float> values, const InitialValueRule& rule, std::uint64_t seed,
                     const std::string& name);
};

} // namespace sahaj::optim
