#include "core/optim/ParameterInitializer.h"

#include "core/optim/DeterministicMath.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sahaj::optim {

namespace {

// splitmix64 (Steele, Lea, Flood 2014): a fast generator whose output is fully defined by integer
// arithmetic.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in (-1, 1), from 53 random bits.
    double symmetric() { return static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0; }

private:
    std::uint64_t state_;
};

// FNV-1a of the name, mixed with the seed: one stream per parameter, so that adding a parameter to a model
// does not change the others' values.
std::uint64_t streamSeed(std::uint64_t seed, const std::string& name) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : name) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    return hash ^ (seed * 0x9e3779b97f4a7c15ull);
}

} // namespace

void ParameterInitializer::fill(std::span<float> values, const InitialValueRule& rule, std::uint64_t seed,
                                const std::string& name) {
    if (rule.zeroRow && (rule.rowLength == 0 || (*rule.zeroRow + 1) * rule.rowLength > values.size()))
        throw std::invalid_argument("initialisation of '" + name + "': the zero row is outside the values");
    if (rule.kind == InitialValueRule::Kind::Constant) {
        std::fill(values.begin(), values.end(), static_cast<float>(rule.constant));
    } else {
        if (!std::isfinite(rule.std) || rule.std < 0.0)
            throw std::invalid_argument("initialisation of '" + name + "': invalid standard deviation");
        SplitMix64 random(streamSeed(seed, name));
        for (std::size_t i = 0; i < values.size();) {
            double u = 0.0, v = 0.0, s = 0.0;
            do {
                u = random.symmetric();
                v = random.symmetric();
                s = u * u + v * v;
            } while (s >= 1.0 || s == 0.0);
            const double factor = std::sqrt(-2.0 * DeterministicMath::log(s) / s);
            values[i++] = static_cast<float>(rule.std * (u * factor));
            if (i < values.size())
                values[i++] = static_cast<float>(rule.std * (v * factor));
        }
    }
    if (rule.zeroRow)
        std::fill_n(values.begin() + static_cast<std::ptrdiff_t>(*rule.zeroRow * rule.rowLength),
                    rule.rowLength, 0.0f);
}

} // namespace sahaj::optim
