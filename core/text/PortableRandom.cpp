#include "core/text/PortableRandom.h"

#include <limits>
#include <stdexcept>

namespace sahaj::text {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

std::uint64_t PortableRandom::deriveSeed(std::uint64_t base, std::initializer_list<std::uint64_t> parts) {
    std::uint64_t state = splitmix64(base);
    for (const std::uint64_t part : parts)
        state = splitmix64(state ^ splitmix64(part + 0x632be59bd9b4e019ULL));
    return state;
}

std::uint64_t PortableRandom::below(std::uint64_t bound) {
    if (bound == 0)
        throw std::invalid_argument("PortableRandom::below: bound must be positive");
    // Accept only draws below the largest multiple of bound, so every residue is equally likely.
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t draw = engine_();
    while (draw >= limit)
        draw = engine_();
    return draw % bound;
}

std::int64_t PortableRandom::between(std::int64_t low, std::int64_t high) {
    if (high < low)
        throw std::invalid_argument("PortableRandom::between: empty range");
    const std::uint64_t span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    if (span == std::numeric_limits<std::uint64_t>::max())
        return static_cast<std::int64_t>(engine_());
    return low + static_cast<std::int64_t>(below(span + 1));
}

double PortableRandom::uniform() {
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

} // namespace sahaj::text
