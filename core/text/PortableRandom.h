#pragma once

#include <cstdint>
#include <initializer_list>
#include <random>

namespace sahaj::text {

// A seeded random source whose draws are the same on every platform and standard library.
// std::mt19937_64 itself is fully specified, but std::uniform_int_distribution and friends are not
// (libstdc++, libc++ and MSVC draw differently), so the data pipeline derives its integers and reals
// here: a peer's stream stays reproducible whatever compiler built the client.
class PortableRandom {
public:
    explicit PortableRandom(std::uint64_t seed) : engine_(seed) {}

    // Combines a base seed with a path of indices (pass, document, example, ...) into an independent
    // seed (splitmix64 finaliser after each part), so each unit of work has its own generator and
    // can be replayed without drawing everything before it.
    static std::uint64_t deriveSeed(std::uint64_t base, std::initializer_list<std::uint64_t> parts);

    // Uniform integer in [0, bound); bound must be > 0. Rejection sampling, no modulo bias.
    std::uint64_t below(std::uint64_t bound);
    // Uniform integer in [low, high] (inclusive).
    std::int64_t between(std::int64_t low, std::int64_t high);
    // Uniform real in [0, 1) with 53 random bits.
    double uniform();
    bool chance(double probability) { return uniform() < probability; }

private:
    std::mt19937_64 engine_;
};

} // namespace sahaj::text
