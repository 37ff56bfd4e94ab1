#pragma once

// The local vector of a test peer, a function of its seed alone, so that the test can compute the exact
// weighted mean every peer should end with.
#include <cmath>
#include <cstdint>
#include <vector>

namespace sahaj::test {

inline std::vector<float> allReduceTestVector(std::uint64_t seed, std::int64_t size) {
    std::vector<float> values(static_cast<std::size_t>(size));
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (float& value : values) {
        // xorshift64*: cheap, and the same on every platform.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        const std::uint64_t bits = state * 0x2545F4914F6CDD1DULL;
        value = static_cast<float>(static_cast<double>(bits >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
    return values;
}

} // namespace sahaj::test
